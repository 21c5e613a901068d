/**
 * The owner's screens in a shop owner's words, not the API's codes. Kept here rather than read
 * from @mpesa/shared, whose values would bring zod into the first screen's download.
 */
import type { ApiKeyScope, AuditAction, AuditEntry } from '@mpesa/shared/contract-admin';
import type { OperatorRole } from '@mpesa/shared/contract-auth';

export const ROLES: readonly { value: OperatorRole; name: string; can: string }[] = [
  { value: 'viewer', name: 'Viewer', can: 'Can view the history' },
  { value: 'cashier', name: 'Cashier', can: 'Can also ask for payments' },
  { value: 'owner', name: 'Owner', can: 'Can also export, review and manage people' },
];

export function roleName(role: OperatorRole): string {
  return ROLES.find((each) => each.value === role)?.name ?? role;
}

export const SCOPES: readonly { value: ApiKeyScope; name: string; can: string }[] = [
  {
    value: 'payments:read',
    name: 'Read payments',
    can: 'The history, the figures and each payment’s details',
  },
  { value: 'payments:request', name: 'Request payments', can: 'Send payment requests' },
];

export function scopeName(scope: ApiKeyScope): string {
  return SCOPES.find((each) => each.value === scope)?.name ?? scope;
}

const ACTIONS: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed to sign in',
  sign_out: 'Signed out',
  export: 'Exported payments',
  review: 'Reviewed a payment',
  operator_added: 'Added an operator',
  operator_role_changed: 'Changed a role',
  operator_removed: 'Removed an operator',
  password_link_issued: 'Made a password link',
  password_set: 'Set a password',
  key_created: 'Created an API key',
  key_revoked: 'Revoked an API key',
};

export function actionWords(action: AuditAction): string {
  return ACTIONS[action] ?? action;
}

/** Who did it, as an owner would say it. */
export function actorWords({ actorKind, actor }: Pick<AuditEntry, 'actorKind' | 'actor'>): string {
  switch (actorKind) {
    case 'operator':
      return actor ?? 'An operator';
    case 'key':
      return actor ? `API key “${actor}”` : 'An API key';
    case 'command':
      return 'The server’s command line';
    default:
      return actor ? `${actor} (not signed in)` : 'Someone not signed in';
  }
}
