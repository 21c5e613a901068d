import { useEffect } from 'react';
import { shellWords } from '../i18n/shell-words';
import { useWords } from '../i18n/words';

/** Names the browser tab (and what a screen reader announces on navigation) after the screen. */
export function useDocumentTitle(screen: string): void {
  const { appTitle } = useWords(shellWords);
  useEffect(() => {
    document.title = `${screen} · ${appTitle}`;
  }, [screen, appTitle]);
}
