/** The roles (packages/shared/src/contract-auth.ts says what each may do), in order. */
import { OPERATOR_ROLES, type OperatorRole } from '@mpesa/shared/contract-auth';

export { OPERATOR_ROLES, type OperatorRole };

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}
