import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { SignInBody } from '@mpesa/shared/contract-auth';
import { useRefusalMessage } from '../../i18n/refusal-words';
import { useWords } from '../../i18n/words';
import { ApiError } from '../../lib/api-client';
import { signIn, switchOperator } from './api/auth-api';
import { authWords } from './auth-words';
import { signInTarget } from './sign-in-target';

export type SignInField = keyof SignInBody;
/**
 * A field's problem: left empty, or refused by the API's check (its `error`). Kept as the reason,
 * not as a sentence, so that the message on screen follows the language (i18n/words.ts).
 */
export interface SignInInvalid {
  field: SignInField;
  error?: unknown;
}

const EMPTY: SignInBody = { name: '', password: '' };

/** The first empty field, in the form's order: nothing is sent until both are filled. */
function check(form: SignInBody): SignInInvalid | null {
  const field = (['name', 'password'] as const).find((name) => form[name] === '');
  return field ? { field } : null;
}

/** The field an API's validation error names, if it names one of the form's. */
function fieldOf(error: unknown): SignInField | null {
  if (!(error instanceof ApiError)) return null;
  const body = (error.body as { code?: unknown; field?: unknown } | undefined) ?? {};
  return body.code === 'VALIDATION_ERROR' && (body.field === 'name' || body.field === 'password')
    ? body.field
    : null;
}

/**
 * Why signing in failed, in the screens' language: the API's own words by its code (a wrong name
 * or password is one answer, never saying which; too many attempts say how long to wait), or
 * that the server could not be reached.
 */
export function useSignInProblem(): (error: unknown) => string {
  const words = useWords(authWords);
  const refusal = useRefusalMessage();
  return (error) => {
    if (!(error instanceof ApiError)) return words.signInFailed;
    if (error.status === 0) return words.unreachable;
    return refusal(error) || words.signInFailed;
  };
}

/** The sign-in form's state and its submission; on success, on to `?next=` (when it is ours). */
export function useSignIn() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SignInBody>(EMPTY);
  const [invalid, setInvalid] = useState<SignInInvalid | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const update = (field: SignInField) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setError(null);
    const problem = check(form);
    setInvalid(problem);
    if (problem) return;
    setPending(true);
    try {
      const { operator, failedAttempts } = await signIn(form);
      switchOperator(queryClient, operator, failedAttempts);
      void navigate(signInTarget(search.get('next')), { replace: true });
    } catch (failure) {
      const field = fieldOf(failure);
      if (field) setInvalid({ field, error: failure });
      else setError(failure);
      setPending(false);
    }
  }

  return { form, update, invalid, error, pending, submit };
}
