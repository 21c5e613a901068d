import { useRoutes } from 'react-router';
import { AuditScreen } from '../features/admin/components/audit-screen';
import { KeysScreen } from '../features/admin/components/keys-screen';
import { OperatorsScreen } from '../features/admin/components/operators-screen';
import { SetPasswordScreen } from '../features/admin/components/set-password-screen';
import { SignInForm } from '../features/auth/components/sign-in-form';
import '../features/admin/admin.css';
import { NotFound } from './not-found';
import { ownerPaths } from './owner-paths';
import { paths } from './paths';

/**
 * The signing-in and owner's screens' one chunk (HISTORY_ACCESS=operators), with the header's
 * operator bar and "Page not found": one download after the first screen (layout.tsx), and not
 * even their route table in the first screen's (docs/performance.md, "The web app").
 */
export { OperatorBar } from '../features/auth/components/operator-bar';

export function OtherScreens() {
  return useRoutes([
    { path: paths.signIn, element: <SignInForm /> },
    { path: ownerPaths.operators, element: <OperatorsScreen /> },
    { path: ownerPaths.keys, element: <KeysScreen /> },
    { path: ownerPaths.audit, element: <AuditScreen /> },
    { path: ownerPaths.setPassword, element: <SetPasswordScreen /> },
    { path: '*', element: <NotFound /> },
  ]);
}
