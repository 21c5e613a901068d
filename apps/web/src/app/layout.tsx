import { Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useHistoryReachable } from '../features/auth/history-reach';
import { SimulatorNotice } from '../features/system/components/simulator-notice';
import { LanguageSwitch } from '../i18n/language-switch';
import { shellWords } from '../i18n/shell-words';
import { useWords } from '../i18n/words';
import { lazyScreen } from '../lib/lazy-screen';
import { paths } from '../lib/paths';

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
  const words = useWords(shellWords);
  const historyReachable = useHistoryReachable();

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
        {words.skipLink}
      </a>
      <header className="app-header">
        <h1>{words.appTitle}</h1>
        {__REPOSITORY_URL__ && (
          <a
            className="repo-link"
            href={__REPOSITORY_URL__}
            target="_blank"
            rel="noopener noreferrer"
          >
            {words.repository}
          </a>
        )}
        <LanguageSwitch />
        <nav aria-label={words.mainNavigation}>
          <NavLink to={paths.home} end>
            {words.makePayment}
          </NavLink>
          {historyReachable && <NavLink to={paths.transactions}>{words.transactions}</NavLink>}
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
        <p>
          &copy; {new Date().getFullYear()} {words.footer}
        </p>
        {/* Where the history is the shop's only: the way in for its people, out of a payer's way. */}
        {!historyReachable && (
          <p>
            <Link to={paths.signIn}>{words.staffSignIn}</Link>
          </p>
        )}
      </footer>
    </div>
  );
}
