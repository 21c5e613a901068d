import { Suspense, useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { SimulatorNotice } from '../features/system/components/simulator-notice';
import { lazyScreen } from '../lib/lazy-screen';
import { paths } from './paths';

/**
 * Who is signed in, and "Sign out" (HISTORY_ACCESS=operators): in the chunk of the other screens
 * (screens.tsx), fetched after the first screen, since a payer never needs it; nothing shows
 * while it comes, or if it does not.
 */
export const loadAuth = () => import('./screens');
export const operatorBar = lazyScreen(() => loadAuth().then((m) => m.OperatorBar), true);

export function Layout() {
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // After a client-side navigation, move focus to the new content so that keyboard and screen
  // reader users start there rather than on the link they used.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.focus();
  }, [pathname]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <h1>M-PESA Payment Integration</h1>
        {__REPOSITORY_URL__ && (
          <a
            className="repo-link"
            href={__REPOSITORY_URL__}
            target="_blank"
            rel="noopener noreferrer"
          >
            View GitHub Repository
          </a>
        )}
        <nav aria-label="Main">
          <NavLink to={paths.home} end>
            Make Payment
          </NavLink>
          <NavLink to={paths.transactions}>Transactions</NavLink>
        </nav>
        <Suspense fallback={null}>
          <operatorBar.Component />
        </Suspense>
      </header>
      <SimulatorNotice />
      <main id="main" ref={main} tabIndex={-1}>
        {/* A screen whose code is still on its way keeps the previous one shown (navigations are
            transitions); nothing is shown in its place on a first paint. */}
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="app-footer">
        <p>&copy; {new Date().getFullYear()} M-PESA Integration Demo</p>
      </footer>
    </div>
  );
}
