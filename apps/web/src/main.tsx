import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from './app/query-client';
import { AppRoutes, preloadAllScreens, preloadScreensFor } from './app/router';
import { publicConfigQueryOptions } from './features/system/api/system-api';
import './styles.css';

/** Longest wait for /api/config before painting without it (it normally came in long before). */
const CONFIG_WAIT_MS = 2000;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const queryClient = createQueryClient();

function render(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  // The other screens load once the page has, so that following a link waits for nothing.
  const preloadRest = () => void preloadAllScreens().catch(() => undefined);
  if (document.readyState === 'complete') preloadRest();
  else window.addEventListener('load', preloadRest, { once: true });
}

// The first paint is the whole screen, so that nothing moves afterwards: the simulator notice is
// known (index.html asked for /api/config while this script was downloading, see vite.config.ts)
// and the screen the address opens has its code. (No top-level await: it would keep the bundler
// from merging the shared code into this chunk.)
void Promise.all([
  Promise.race([
    queryClient.prefetchQuery(publicConfigQueryOptions()),
    new Promise((resolve) => setTimeout(resolve, CONFIG_WAIT_MS)),
  ]),
  // A failed download is tried again when the screen renders.
  preloadScreensFor(window.location.pathname).catch(() => undefined),
]).then(() => render(root));
