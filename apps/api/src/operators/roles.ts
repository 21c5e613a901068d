/**
 * What an operator may do: a viewer reads the history, a cashier also
 * sends payment requests, an owner also exports, reviews and manages operators. Each role can do
 * everything the roles before it can.
 */
export const OPERATOR_ROLES = ['viewer', 'cashier', 'owner'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}
