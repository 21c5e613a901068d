import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { setPassword } from './api/admin-api';
import { UNREACHABLE } from './problem';

/**
 * The password's bounds in characters, as the API counts them (docs/decisions/003), said before
 * typing and checked before sending: the API's own refusal would say the same.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const LINK_INVALID =
  'This link does not work: it was used already, it is more than 24 hours old, or a newer one ' +
  'was made. Ask the shop’s owner for a new link.';
const FALLBACK = 'Setting the password failed. Please try again.';

export type SetPasswordField = 'password' | 'again';

/** What is wrong with the two passwords typed, if anything, before anything is sent. */
function check(
  password: string,
  again: string,
): { field: SetPasswordField; message: string } | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    return {
      field: 'password',
      message: `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
    };
  }
  if (again !== password) return { field: 'again', message: 'The two passwords are not the same.' };
  return null;
}

/**
 * The one-time link's page: the token is read from the address's `#` (never sent to a server's
 * log) and then taken out of the address bar, so that it stays in neither the history nor a
 * screenshot; then the new password, twice.
 */
export function useSetPassword() {
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => decodeURIComponent(hash.replace(/^#/, '')));
  const [form, setForm] = useState({ password: '', again: '' });
  const [invalid, setInvalid] = useState<ReturnType<typeof check>>(null);
  const [error, setError] = useState<string | null>(null);
  const [linkInvalid, setLinkInvalid] = useState(token === '');
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (hash) void navigate(pathname, { replace: true });
  }, [hash, pathname, navigate]);

  const update = (field: SetPasswordField) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setError(null);
    const problem = check(form.password, form.again);
    setInvalid(problem);
    if (problem) return;
    setPending(true);
    try {
      setDone(await setPassword({ token, password: form.password }));
    } catch (failure) {
      if (
        failure instanceof ApiError &&
        (failure.body as { code?: unknown } | undefined)?.code === 'PASSWORD_LINK_INVALID'
      ) {
        setLinkInvalid(true);
      } else if (failure instanceof ApiError && failure.status === 0) setError(UNREACHABLE);
      else setError((failure instanceof ApiError && failure.message) || FALLBACK);
    } finally {
      setPending(false);
    }
  }

  return { form, update, invalid, error, linkInvalid, done, pending, submit };
}
