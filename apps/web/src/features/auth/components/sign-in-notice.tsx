import { Link, useLocation } from 'react-router';
import { signInPathFor } from '../unauthenticated';

/**
 * In place of what a merchant's screen could not show without a session (HISTORY_ACCESS=operators):
 * what to do, and the way there and back.
 */
export function SignInNotice() {
  const { pathname, search } = useLocation();
  return (
    <p className="sign-in-notice">
      Sign in to see this. <Link to={signInPathFor(pathname + search)}>Sign in</Link>
    </p>
  );
}
