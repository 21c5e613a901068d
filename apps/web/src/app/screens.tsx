import { useRoutes } from 'react-router';
import { SignInForm } from '../features/auth/components/sign-in-form';
import { lazyScreen } from '../lib/lazy-screen';
import { NotFound } from './not-found';
import { ownerPaths } from '../lib/owner-paths';
import { paths } from '../lib/paths';

/**
 * The signing-in screen's chunk (HISTORY_ACCESS=operators), with the header's operator bar and
 * "Page not found": one download after the first screen (layout.tsx), and not even their route
 * table in the first screen's (docs/performance.md, "The web app"). The owner's screens are a
 * chunk further on, fetched only when one is opened.
 */
import { OperatorBar as Bar } from '../features/auth/components/operator-bar';
import { withQueries } from '../lib/queries';

const payoutsScreen = lazyScreen(() =>
  import('../features/payouts/components/payouts-screen').then((m) => m.PayoutsScreen),
);

const linksScreen = lazyScreen(() =>
  import('../features/links/components/links-screen').then((m) => m.LinksScreen),
);
const payLinkScreen = lazyScreen(() =>
  import('../features/links/components/pay-link-screen').then((m) => m.PayLinkScreen),
);

const ownerScreens = lazyScreen(() =>
  import('../features/admin/owner-screens').then((m) => m.OwnerScreens),
);
/** For the tests, which render every screen at once. */
export const preloadOwnerScreens = () =>
  Promise.all([
    ownerScreens.preload(),
    payoutsScreen.preload(),
    linksScreen.preload(),
    payLinkScreen.preload(),
  ]);

export const OperatorBar = withQueries(Bar);

export const OtherScreens = withQueries(function OtherScreens() {
  return useRoutes([
    { path: paths.signIn, element: <SignInForm /> },
    { path: paths.payouts, element: <payoutsScreen.Component /> },
    { path: paths.links, element: <linksScreen.Component /> },
    { path: '/pay/:code', element: <payLinkScreen.Component /> },
    ...Object.values(ownerPaths).map((path) => ({ path, element: <ownerScreens.Component /> })),
    { path: '*', element: <NotFound /> },
  ]);
});
