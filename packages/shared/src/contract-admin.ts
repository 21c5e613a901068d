/**
 * The HTTP contract of the owner's screens (HISTORY_ACCESS=operators): managing
 * operators, the one-time links that set a password, API keys for the shop's own systems, the
 * audit trail, and reviewing a flagged payment. The web app imports only its types; its own export
 * path keeps zod out of the first screen's download.
 */
import { z } from 'zod';
import { PAYMENT_CHANNELS, TRANSACTION_STATUSES } from './constants.ts';
import { OPERATOR_ROLES } from './contract-auth.ts';

const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

// Operators (an owner's): `GET|POST /api/operators`, `PATCH|DELETE /api/operators/:name`,
// `POST /api/operators/:name/password-link`.

/** One operator as the owner's list shows them. Never their password or sessions. */
export const operatorEntrySchema = /* @__PURE__ */ z.object({
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  createdAt: z.string(),
  /** False until the operator has used their first one-time link. */
  passwordSet: z.boolean(),
  /** The operator asking. */
  you: z.boolean(),
});
export type OperatorEntry = z.infer<typeof operatorEntrySchema>;

export const operatorListResponseSchema = /* @__PURE__ */ ok(
  z.object({ operators: z.array(operatorEntrySchema) }),
);
export type OperatorListResponse = z.infer<typeof operatorListResponseSchema>;

/** A new operator: they choose their own password through the one-time link the answer gives. */
export const addOperatorBodySchema = /* @__PURE__ */ z.object({
  name: z.string().max(1000),
  role: z.enum(OPERATOR_ROLES),
});
export type AddOperatorBody = z.infer<typeof addOperatorBodySchema>;

export const changeRoleBodySchema = /* @__PURE__ */ z.object({ role: z.enum(OPERATOR_ROLES) });
export type ChangeRoleBody = z.infer<typeof changeRoleBodySchema>;

/**
 * A one-time link that sets an operator's password: shown once, to the owner who asked, who hands
 * it to the operator. `path` is the web app's `/set-password#<token>` (the token after `#` never
 * reaches a server's log); it works once, until `expiresAt`, and a newer link voids it.
 */
export const passwordLinkSchema = /* @__PURE__ */ z.object({
  name: z.string(),
  path: z.string(),
  expiresAt: z.string(),
});
export type PasswordLink = z.infer<typeof passwordLinkSchema>;

export const addOperatorResponseSchema = /* @__PURE__ */ ok(
  z.object({ operator: operatorEntrySchema, link: passwordLinkSchema }),
);
export type AddOperatorResponse = z.infer<typeof addOperatorResponseSchema>;

export const operatorResponseEntrySchema = /* @__PURE__ */ ok(
  z.object({ operator: operatorEntrySchema }),
);
export const passwordLinkResponseSchema = /* @__PURE__ */ ok(
  z.object({ link: passwordLinkSchema }),
);
export type PasswordLinkResponse = z.infer<typeof passwordLinkResponseSchema>;
export const operatorRemovedResponseSchema = /* @__PURE__ */ ok(
  z.object({ removed: z.literal(true) }),
);

/**
 * `POST /api/auth/set-password` (open: the link is the key): sets the password and ends every
 * session the operator had. Answered with who they are; they then sign in.
 */
export const setPasswordBodySchema = /* @__PURE__ */ z.object({
  token: z.string().max(200),
  password: z.string().max(1024),
});
export type SetPasswordBody = z.infer<typeof setPasswordBodySchema>;
export const setPasswordResponseSchema = /* @__PURE__ */ ok(z.object({ name: z.string() }));

// API keys (an owner's): `GET|POST /api/keys`, `DELETE /api/keys/:id` (revokes).

/**
 * What a key may do: `payments:read` the history, the figures, the timelines and a payment's
 * merchant view; `payments:request` send payment requests; `webhooks:manage` manage the webhook
 * endpoints and their deliveries (docs/webhooks.md), whose events carry payers' full phone
 * numbers, so it reads payments as `payments:read` does. Sent as `Authorization: Bearer <key>`.
 */
export const API_KEY_SCOPES = ['payments:read', 'payments:request', 'webhooks:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Why a key was revoked: an owner revoked it (`revokedBy` names them), or it ended with its maker,
 * who was removed or is no longer an owner (`revokedBy`: the owner who changed them; null: the
 * server's command line).
 */
export const API_KEY_REVOKED_REASONS = ['owner', 'maker_removed', 'maker_not_owner'] as const;
export type ApiKeyRevokedReason = (typeof API_KEY_REVOKED_REASONS)[number];

export const apiKeySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The key's first characters, to tell keys apart; the rest is never stored. */
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedReason: z.enum(API_KEY_REVOKED_REASONS).nullable(),
  revokedBy: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListResponseSchema = /* @__PURE__ */ ok(
  z.object({ keys: z.array(apiKeySchema) }),
);
export type ApiKeyListResponse = z.infer<typeof apiKeyListResponseSchema>;

export const createApiKeyBodySchema = /* @__PURE__ */ z.object({
  name: z.string().max(1000),
  scope: z.enum(API_KEY_SCOPES),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The key itself is in `secret`, this once: only its hash is kept. */
export const createApiKeyResponseSchema = /* @__PURE__ */ ok(
  z.object({ key: apiKeySchema, secret: z.string() }),
);
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponseSchema>;
export const apiKeyResponseSchema = /* @__PURE__ */ ok(z.object({ key: apiKeySchema }));

// The audit trail (an owner's): `GET /api/audit?cursor=&limit=`, newest first.

export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'export',
  'review',
  'refund',
  'operator_added',
  'operator_role_changed',
  'operator_removed',
  'password_link_issued',
  'password_set',
  'key_created',
  'key_revoked',
  'webhook_endpoint_added',
  'webhook_endpoint_changed',
  'webhook_endpoint_removed',
  'webhook_endpoint_disabled',
  'webhook_secret_rotated',
  'webhook_resent',
  'webhook_test_sent',
  'payout_proposed',
  'payout_approved',
  'payout_declined',
  'payouts_export',
  'link_created',
  'link_switched_off',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it: an operator, a key, the server's own command line, or someone not signed in. */
export const AUDIT_ACTOR_KINDS = ['operator', 'key', 'command', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** What an entry can be about, each with a screen of its own to go to. */
export const AUDIT_SUBJECT_KINDS = ['payment', 'operator', 'key', 'webhook_endpoint'] as const;
export type AuditSubjectKind = (typeof AUDIT_SUBJECT_KINDS)[number];

/** Which of a failed sign-in's limits was passed: see features/operators/sign-in-limits.ts. */
export const SIGN_IN_LIMIT_KINDS = ['name_from_address', 'address', 'name'] as const;
export type SignInLimitKind = (typeof SIGN_IN_LIMIT_KINDS)[number];

const auditRole = /* @__PURE__ */ z.enum(OPERATOR_ROLES);
const auditStatus = /* @__PURE__ */ z.enum(TRANSACTION_STATUSES);

/**
 * An entry's `detail`, read into parts that a screen puts in its own words and language. Each
 * action's own (the API's audit/audit-details.ts writes and reads them); null when the entry has
 * no detail, or one this version cannot read (then `detail` is all there is).
 */
export const auditFactsSchema = /* @__PURE__ */ z.discriminatedUnion('kind', [
  /** An operator added with this role, or removed while they had it. */
  z.object({ kind: z.literal('role'), role: auditRole }),
  z.object({ kind: z.literal('role_change'), from: auditRole, to: auditRole }),
  /** A payment reviewed: its status before and after, and the reviewer's note. */
  z.object({ kind: z.literal('review'), from: auditStatus, to: auditStatus, note: z.string() }),
  /** A refund asked for: its amount in KES and the owner's reason. */
  z.object({ kind: z.literal('refund'), amount: z.number(), reason: z.string() }),
  /**
   * A key's scope; for a key revoked with its maker, the maker and the role they now have (null:
   * they were removed).
   */
  z.object({
    kind: z.literal('key'),
    scope: z.enum(API_KEY_SCOPES),
    maker: z.object({ name: z.string(), role: auditRole.nullable() }).nullable(),
  }),
  /**
   * An export's filters (none given: every payment). `search`: there was a search, whose text is
   * never kept; `more`: filters this version does not know, by name and value.
   */
  z.object({
    kind: z.literal('export'),
    status: z.array(auditStatus),
    channel: z.array(z.enum(PAYMENT_CHANNELS)),
    from: z.string().nullable(),
    to: z.string().nullable(),
    search: z.boolean(),
    more: z.array(z.object({ name: z.string(), value: z.string() })),
  }),
  /** A password set with a one-time link. */
  z.object({ kind: z.literal('one_time_link') }),
  /** A sign-in whose operator was removed, or whose password changed, while it was checked. */
  z.object({ kind: z.literal('sign_in_race') }),
  /** Too many failed sign-ins: which limit, and until when attempts are refused. */
  z.object({
    kind: z.literal('sign_in_limit'),
    by: z.enum(SIGN_IN_LIMIT_KINDS),
    until: z.string(),
  }),
  /** A webhook endpoint's URL and the event types it is sent (none known: removed). */
  z.object({ kind: z.literal('endpoint'), url: z.string(), events: z.array(z.string()) }),
  /** What changed about an endpoint, each null when it did not. */
  z.object({
    kind: z.literal('endpoint_change'),
    url: z.object({ from: z.string(), to: z.string() }).nullable(),
    events: z.array(z.string()).nullable(),
    enabled: z.boolean().nullable(),
  }),
  /** An endpoint turned off because every delivery to it failed since `since`. */
  z.object({ kind: z.literal('endpoint_failing'), url: z.string(), since: z.string() }),
  /** An endpoint's new signing secret, by its first characters. */
  z.object({ kind: z.literal('secret'), prefix: z.string() }),
  /** One delivery sent again: its event's type and id. */
  z.object({ kind: z.literal('resent'), eventType: z.string(), eventId: z.string() }),
  /** Every failed delivery of an endpoint sent again: how many. */
  z.object({ kind: z.literal('resent_failed'), count: z.number().int() }),
  /** A test event sent: its id. */
  z.object({ kind: z.literal('test_event'), eventId: z.string() }),
]);
export type AuditFacts = z.infer<typeof auditFactsSchema>;

export const auditEntrySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  at: z.string(),
  /**
   * Who did it and what, each one this version knows or, for a line a later version wrote (before a
   * rollback to this one), as stored: the screens show it as it is.
   */
  actorKind: z.union([z.enum(AUDIT_ACTOR_KINDS), z.string()]),
  /** The operator's or key's name; for a failed sign-in, the name typed only if it is an operator's. */
  actor: z.string().nullable(),
  action: z.union([z.enum(AUDIT_ACTIONS), z.string()]),
  /** What it was done to: an operator's name, a key's name, a payment's or endpoint's id. */
  target: z.string().nullable(),
  /**
   * The target, for a link to it: what it is, its id (`target`), and what to call it: an
   * operator's or key's name, a payment's reference, an endpoint's URL (null when no longer known).
   */
  subject: z
    .object({ kind: z.enum(AUDIT_SUBJECT_KINDS), id: z.string(), name: z.string().nullable() })
    .nullable(),
  /** A few words more, as stored (in English): the new role, the review's note, the export's filters. */
  detail: z.string().nullable(),
  /** `detail` read into parts, for the screens to say in their own words. */
  facts: auditFactsSchema.nullable(),
  /** The address the request came from (none for the command line). */
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = /* @__PURE__ */ z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const auditListResponseSchema = /* @__PURE__ */ ok(
  z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() }),
);
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

// Reviewing a payment (an owner's): `POST /api/mpesa/transactions/:id/review`, as `npm run review`.

export const REVIEW_STATUS_VALUES = ['success', 'failed', 'cancelled', 'timeout'] as const;
/** No control character but line breaks and tabs: a note is kept, shown and written as text. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const NOTE_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
export const reviewBodySchema = /* @__PURE__ */ z.object({
  note: z.string().max(1000).regex(NOTE_TEXT, {
    error: 'The note must not contain control characters (line breaks and tabs are fine).',
  }),
  /** Required for a payment of unknown outcome, settled from the M-PESA statement. */
  status: z.enum(REVIEW_STATUS_VALUES).optional(),
});
export type ReviewBody = z.infer<typeof reviewBodySchema>;
