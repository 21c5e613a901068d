import { useEffect } from 'react';

const APP_TITLE = 'M-PESA Payment Integration';

/** Names the browser tab (and what a screen reader announces on navigation) after the screen. */
export function useDocumentTitle(screen: string): void {
  useEffect(() => {
    document.title = `${screen} · ${APP_TITLE}`;
  }, [screen]);
}
