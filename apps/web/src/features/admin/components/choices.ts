import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import type { OwnerWords } from '../owner-words';
import type { Choice } from './named-choice-form';

/** In the order they are offered: from the least one can do to the most. */
const ROLES: readonly OperatorRole[] = ['viewer', 'cashier', 'owner'];
const SCOPES: readonly ApiKeyScope[] = ['payments:read', 'payments:request', 'webhooks:manage'];

/** The roles, each with its name and what it allows, in the screens' language. */
export function roleChoices(words: OwnerWords): Choice<OperatorRole>[] {
  return ROLES.map((value) => ({ value, ...words.roles[value] }));
}

/** The API keys' scopes, each with its name and what it allows, in the screens' language. */
export function scopeChoices(words: OwnerWords): Choice<ApiKeyScope>[] {
  return SCOPES.map((value) => ({ value, ...words.scopes[value] }));
}
