import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { setPassword } from './api/admin-api';

/**
 * The password's bounds in characters, as the API counts them (docs/decisions/003), said before
 * typing and checked before sending: the API's own refusal would say the same.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export type SetPasswordField = 'password' | 'again';

/**
 * What is wrong with the two passwords typed, if anything, before anything is sent: kept as the
 * reason, put in words on screen (so that it follows the language).
 */
export type SetPasswordInvalid =
  { field: 'password'; reason: 'length' } | { field: 'again'; reason: 'not-the-same' };

/**
 * Why setting the password failed, other than a dead link: the server was not reached, the API
 * refused (its `error`), or something else went wrong.
 */
export type SetPasswordFailure =
  { kind: 'unreachable' } | { kind: 'refused'; error: ApiError } | { kind: 'failed' };

function check(password: string, again: string): SetPasswordInvalid | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    return { field: 'password', reason: 'length' };
  if (again !== password) return { field: 'again', reason: 'not-the-same' };
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
  const [error, setError] = useState<SetPasswordFailure | null>(null);
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
      } else if (!(failure instanceof ApiError)) setError({ kind: 'failed' });
      else if (failure.status === 0) setError({ kind: 'unreachable' });
      else setError({ kind: 'refused', error: failure });
    } finally {
      setPending(false);
    }
  }

  return { form, update, invalid, error, linkInvalid, done, pending, submit };
}
