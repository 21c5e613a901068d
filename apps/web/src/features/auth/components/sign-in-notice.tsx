import { Link, useLocation } from 'react-router';
import { useWords } from '../../../i18n/words';
import { signInNoticeWords } from '../sign-in-notice-words';
import { signInPathFor } from '../unauthenticated';

/**
 * In place of what a merchant's screen could not show without a session (HISTORY_ACCESS=operators):
 * what to do, and the way there and back.
 */
export function SignInNotice() {
  const { pathname, search } = useLocation();
  const words = useWords(signInNoticeWords);
  return (
    <p className="sign-in-notice">
      {words.notice} <Link to={signInPathFor(pathname + search)}>{words.link}</Link>
    </p>
  );
}
