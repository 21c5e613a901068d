/**
 * The HTTP contract of signing in (`/api/auth/*`): who is signed in, and as what. The web app
 * imports only its types; its own export path keeps zod out of the first screen's download.
 */
import { z } from 'zod';

/**
 * What an operator may do: a viewer reads the history, a cashier also sends payment requests, an
 * owner also exports, reviews and manages operators. Each role can do all the roles before it can.
 */
export const OPERATOR_ROLES = ['viewer', 'cashier', 'owner'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Bounded well above any stored name or allowed password (256 characters, of up to 4 bytes each),
 * so that a longer one is refused as a wrong one, not as invalid: the answer says nothing.
 */
export const signInBodySchema = /* @__PURE__ */ z.object({
  name: z.string().min(1).max(1000),
  password: z.string().min(1).max(1024),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

/** The operator signed in: the answer of `GET /api/auth/me` (and, with more, of sign-in). */
export const operatorSchema = /* @__PURE__ */ z.object({
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
});
export type Operator = z.infer<typeof operatorSchema>;

export const operatorResponseSchema = /* @__PURE__ */ z.object({
  success: z.literal(true),
  data: operatorSchema,
});
export type OperatorResponse = z.infer<typeof operatorResponseSchema>;

/**
 * `POST /api/auth/sign-in`'s answer: the operator, and the wrong passwords typed for their name
 * (from any address) since they last signed in, which the web app shows them once.
 */
export const signInResponseSchema = /* @__PURE__ */ z.object({
  success: z.literal(true),
  data: operatorSchema.extend({ failedAttempts: z.number().int().min(0) }),
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** `GET /api/auth/csrf`: the token `POST /api/auth/sign-out` takes in its X-CSRF-Token header. */
export const csrfResponseSchema = /* @__PURE__ */ z.object({
  success: z.literal(true),
  data: z.object({ token: z.string() }),
});
export type CsrfResponse = z.infer<typeof csrfResponseSchema>;
