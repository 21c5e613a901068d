import { matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { PaymentForm } from '../features/payments/components/payment-form';
import { lazyScreen, type LazyScreen } from '../lib/lazy-screen';
import { Layout, loadAuth, operatorBar } from './layout';
import { paths } from '../lib/paths';

/*
 * The first screen, the payment form, is in the main bundle with the shell; the history and the
 * detail screen come in a chunk of their own, and every other screen in one more, routes and all
 * (screens.tsx), so that the first screen's download carries none of them (docs/performance.md,
 * "The web app").
 */
const transactionList = lazyScreen(() =>
  import('../features/transactions/components/transaction-list').then((m) => m.TransactionList),
);
const transactionDetails = lazyScreen(() =>
  import('../features/transactions/components/transaction-details').then(
    (m) => m.TransactionDetails,
  ),
);
const otherScreens = lazyScreen(() => loadAuth().then((m) => m.OtherScreens));

interface ScreenHandle {
  screen: LazyScreen;
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: paths.home, element: <PaymentForm /> },
      {
        path: paths.transactions,
        element: <transactionList.Component />,
        handle: { screen: transactionList } satisfies ScreenHandle,
      },
      {
        path: `${paths.transactions}/:id`,
        element: <transactionDetails.Component />,
        handle: { screen: transactionDetails } satisfies ScreenHandle,
      },
      // Sign in, the owner's screens, the one-time link's page and "Page not found".
      {
        path: '*',
        element: <otherScreens.Component />,
        handle: { screen: otherScreens } satisfies ScreenHandle,
      },
    ],
  },
];

/** The routes, for a BrowserRouter (the declarative router: 16 KB less than the data router). */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Fetches the code of the screens an address opens; resolves at once for the first screen. */
export function preloadScreensFor(pathname: string): Promise<unknown> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(
    matches.map((match) => (match.route.handle as ScreenHandle | undefined)?.screen.preload()),
  );
}

/** Fetches every screen's code, so that later navigation waits for nothing. */
export function preloadAllScreens(): Promise<unknown> {
  return Promise.all([
    transactionList.preload(),
    transactionDetails.preload(),
    otherScreens.preload(),
    operatorBar.preload(),
  ]);
}
