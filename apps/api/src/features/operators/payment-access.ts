/**
 * Who may send a payment request with HISTORY_ACCESS=operators (docs/product.md §6: the payer's
 * form stays open, within the limits that protect payers). Three kinds of request reach `POST /api/mpesa/stkpush`:
 * - a payer's, with no credential: open, as the specification describes, within the prompt limits;
 * - the shop's, with a live session cookie: a cashier or an owner (a viewer is refused), and
 *   never from a page on another site (the payer's form needs no CSRF token, so the cookie's
 *   requests are held to Origin and Sec-Fetch-Site instead);
 * - a program's, with `Authorization: Bearer <key>`: a key with `payments:request`.
 * A cookie whose session is stale or revoked is no credential: its request is a payer's, and so is
 * an `Authorization` header of another scheme (a proxy's HTTP Basic sign-in).
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import { checkAccess, identifier, recordAccess, type AuthDeps } from './require-operator.ts';

/** The rule for the shop's own payment requests. */
export const PAYMENT_REQUEST_ACCESS = { role: 'cashier', scope: 'payments:request' } as const;

/** No credential: a payer's request, let through; any other is held to the rule. */
export function paymentRequestGate(deps: AuthDeps): onRequestAsyncHookHandler {
  const identify = identifier(deps);
  return async function paymentGate(request, reply) {
    const actor = await identify.call(this, request, reply);
    if (!actor) return;
    checkAccess(actor, PAYMENT_REQUEST_ACCESS);
    // The shop's own requests are counted apart from the payers' on the same network
    // (features/payments/transactions.routes.ts).
    recordAccess(request, actor);
  };
}
