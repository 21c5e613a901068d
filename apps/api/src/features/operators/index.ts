/**
 * Operators: the shop's people and their access: sign-in and sessions, roles and the access
 * rules every route is guarded by, API keys (keys/) and the audit trail's screen (audit/).
 */
export { guardedSchema, securitySchemes } from './access-doc.ts';
export type { Gate } from './access-doc.ts';
export type { HistoryGuards } from './operators.plugin.ts';
export { ACCESS_REFUSED, AUTH_REFUSED, CHANGE_REFUSED } from './auth.openapi.ts';
export { refuseCrossSite } from './cross-site.ts';
export { WEBHOOKS_SCOPE_WARNING } from './keys/keys.openapi.ts';
export {
  authDepsFor,
  openPaymentPageRecogniser,
  ownerChangeGate,
  registerOperators,
} from './operators.plugin.ts';
export {
  OperatorError,
  addOperator,
  changeRole,
  listOperators,
  removeOperator,
} from './operators.service.ts';
export type { Actor } from './operators.service.ts';
export { issueLink } from './password-links.service.ts';
export { PasswordMismatch, readPassword } from './read-password.ts';
export { accessOf, operatorOf, requireAccess, uncached } from './require-operator.ts';
export type { AccessRule, AuthDeps } from './require-operator.ts';
export { OPERATOR_ROLES, isOperatorRole } from './roles.ts';
export type { OperatorRole } from './roles.ts';
export { cookieNames } from './session-cookie.ts';
