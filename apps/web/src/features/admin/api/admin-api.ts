import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
// Types only: a value from @mpesa/shared would bring zod into the first screen's download.
import type {
  AddOperatorBody,
  AddOperatorResponse,
  ApiKey,
  ApiKeyListResponse,
  AuditListResponse,
  CreateApiKeyBody,
  CreateApiKeyResponse,
  OperatorEntry,
  OperatorListResponse,
  PasswordLink,
  PasswordLinkResponse,
  SetPasswordBody,
} from '@mpesa/shared/contract-admin';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { apiRequest } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

export type { ApiKey, OperatorEntry, PasswordLink };

export const adminKeys = {
  operators: ['admin', 'operators'] as const,
  keys: ['admin', 'keys'] as const,
  audit: ['admin', 'audit'] as const,
};

/** A change, with the session's CSRF token (as signing out); `{}` when it has nothing to say. */
export async function adminChange<T>(
  path: string,
  method: 'POST' | 'PATCH' | 'DELETE',
  body: unknown = {},
) {
  return apiRequest<T>(path, { method, body, headers: await csrfHeaders() });
}

const operatorPath = (name: string) => `/operators/${encodeURIComponent(name)}`;

export function operatorsQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.operators,
    queryFn: async () => (await apiRequest<OperatorListResponse>('/operators')).data.operators,
  });
}

export async function addOperator(body: AddOperatorBody) {
  return (await adminChange<AddOperatorResponse>('/operators', 'POST', body)).data;
}

export async function changeRole(name: string, role: OperatorRole): Promise<void> {
  await adminChange(operatorPath(name), 'PATCH', { role });
}

export async function removeOperator(name: string): Promise<void> {
  await adminChange(operatorPath(name), 'DELETE');
}

export async function newPasswordLink(name: string): Promise<PasswordLink> {
  return (await adminChange<PasswordLinkResponse>(`${operatorPath(name)}/password-link`, 'POST'))
    .data.link;
}

export function keysQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.keys,
    queryFn: async () => (await apiRequest<ApiKeyListResponse>('/keys')).data.keys,
  });
}

export async function createKey(body: CreateApiKeyBody) {
  return (await adminChange<CreateApiKeyResponse>('/keys', 'POST', body)).data;
}

export async function revokeKey(id: string): Promise<void> {
  await adminChange(`/keys/${encodeURIComponent(id)}`, 'DELETE');
}

/** The audit trail, newest first, a page at a time ("Show older" follows `nextCursor`). */
export function auditQueryOptions() {
  return infiniteQueryOptions({
    queryKey: adminKeys.audit,
    queryFn: async ({ pageParam }) => {
      const query = pageParam === null ? '' : `?cursor=${encodeURIComponent(pageParam)}`;
      return (await apiRequest<AuditListResponse>(`/audit${query}`)).data;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/**
 * Sets a password with a one-time link's token. No session and no CSRF token: the link is the key,
 * as the name and password are for signing in. Answers with whose password it was.
 */
export async function setPassword(body: SetPasswordBody): Promise<string> {
  const answer = await apiRequest<{ data: { name: string } }>('/auth/set-password', {
    method: 'POST',
    body,
  });
  return answer.data.name;
}

/** The link's whole address, to hand on: the API gives the path (`/set-password#<token>`). */
export function linkAddress(link: PasswordLink): string {
  return new URL(link.path, window.location.origin).href;
}
