import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { SignInBody } from '@mpesa/shared/contract-auth';
import { ApiError } from '../../lib/api-client';
import { signIn, switchOperator } from './api/auth-api';
import { signInTarget } from './sign-in-target';

export type SignInField = keyof SignInBody;
export interface SignInInvalid {
  field: SignInField;
  message: string;
}

const EMPTY: SignInBody = { name: '', password: '' };
const MISSING: Record<SignInField, string> = {
  name: 'Enter your name.',
  password: 'Enter your password.',
};
const UNREACHABLE = 'The server could not be reached. Check your connection, then try again.';
const FALLBACK = 'Signing in failed. Please try again.';

/** The first empty field, in the form's order: nothing is sent until both are filled. */
function check(form: SignInBody): SignInInvalid | null {
  const field = (['name', 'password'] as const).find((name) => form[name] === '');
  return field ? { field, message: MISSING[field] } : null;
}

/**
 * The API's own words (a wrong name or password is one answer, never saying which; too many
 * attempts say how long to wait), under the field a validation error names, if it names one.
 */
function problemOf(error: unknown): { field: SignInField | null; message: string } {
  if (!(error instanceof ApiError)) return { field: null, message: FALLBACK };
  const field = (error.body as { code?: unknown; field?: unknown } | undefined) ?? {};
  const named =
    field.code === 'VALIDATION_ERROR' && (field.field === 'name' || field.field === 'password')
      ? field.field
      : null;
  if (error.status === 0) return { field: null, message: UNREACHABLE };
  return { field: named, message: error.message || FALLBACK };
}

/** The sign-in form's state and its submission; on success, on to `?next=` (when it is ours). */
export function useSignIn() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SignInBody>(EMPTY);
  const [invalid, setInvalid] = useState<SignInInvalid | null>(null);
  const [error, setError] = useState<string | null>(null);
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
      const operator = await signIn(form);
      switchOperator(queryClient, operator);
      void navigate(signInTarget(search.get('next')), { replace: true });
    } catch (failure) {
      const { field, message } = problemOf(failure);
      if (field) setInvalid({ field, message });
      else setError(message);
      setPending(false);
    }
  }

  return { form, update, invalid, error, pending, submit };
}
