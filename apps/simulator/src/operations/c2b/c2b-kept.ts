/**
 * What C2B keeps (docs/daraja-protocol.md §M3.6): each shortcode's registered URLs and validation
 * settings, and each payment with where it stands, so that SIM_STATE carries both across a restart
 * and a payment in flight ends after it.
 */
import { z } from 'zod';
import { CallbackStateSchema, DeliveryFaultSchema } from '../../callbacks.ts';

/** The two paths, and the form of the payer's number each sends (§M3.3): v1 hashed, v2 masked. */
export const C2bVersionSchema = z.enum(['v1', 'v2']);
export type C2bVersion = z.infer<typeof C2bVersionSchema>;

/** What M-PESA does when the validation URL does not answer in time (§M3.4). */
export const RESPONSE_TYPES = ['Completed', 'Cancelled'] as const;
export const ResponseTypeSchema = z.enum(RESPONSE_TYPES);
export type ResponseType = z.infer<typeof ResponseTypeSchema>;

export const RegistrationSchema = z.object({
  version: C2bVersionSchema,
  responseType: ResponseTypeSchema,
  confirmationUrl: z.string(),
  validationUrl: z.string(),
  registeredAt: z.string(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

/**
 * One shortcode as C2B knows it: its URLs once registered, and what Safaricom sets by email,
 * which the control API sets here: external validation (off by default, §M3.1), and how long the
 * simulator waits for the validation answer (null: SIM_C2B_VALIDATION_TIMEOUT_MS).
 */
export const C2bShortcodeSchema = z.object({
  shortcode: z.string(),
  registration: RegistrationSchema.nullable(),
  externalValidation: z.boolean(),
  validationTimeoutMs: z.number().int().nullable(),
});
export type C2bShortcode = z.infer<typeof C2bShortcodeSchema>;

export const COMMAND_IDS = ['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'] as const;
export type CommandId = (typeof COMMAND_IDS)[number];

/**
 * Where a payment stands: waiting for the merchant's validation answer, paid and telling the
 * confirmation URL, or ended: completed, cancelled (by the merchant, or by ResponseType), or
 * failed (the wallet could not pay: nothing was sent, nothing moved).
 */
export const PaymentStageSchema = z.enum([
  'validating',
  'confirming',
  'completed',
  'cancelled',
  'failed',
]);
export type PaymentStage = z.infer<typeof PaymentStageSchema>;

export const C2bPaymentSchema = z.object({
  transId: z.string(),
  originatorConversationId: z.string(),
  shortcode: z.string(),
  commandId: z.enum(COMMAND_IDS),
  /** Whole cents. */
  amount: z.number().int(),
  msisdn: z.string(),
  billRefNumber: z.string(),
  /** When the customer paid, ISO: the notifications' TransTime. */
  at: z.string(),
  /** Where it came from: Daraja's simulate, or the virtual phone's menu (POST /_sim/c2b/pay). */
  via: z.enum(['simulate', 'phone']),
  /** The shortcode's registration and settings when the customer paid: what it is played by. */
  registration: RegistrationSchema.nullable(),
  validate: z.boolean(),
  validationTimeoutMs: z.number().int(),
  /** The number's chosen outcome: the merchant's validation answer not awaited. */
  merchantSilent: z.boolean(),
  /** The confirmation's own fault (a number's next outcome); the fault rules add to it. */
  fault: DeliveryFaultSchema,
  stage: PaymentStageSchema,
  validation: z.object({
    state: CallbackStateSchema.nullable(),
    /** The merchant's ResultCode as it came, null when none came in time. */
    resultCode: z.string().nullable(),
    /** Who decided: the merchant's answer, or the registered ResponseType. */
    decidedBy: z.enum(['merchant', 'response-type']).nullable(),
  }),
  thirdPartyTransId: z.string(),
  confirmation: CallbackStateSchema.nullable(),
  /** The collection account's balance once paid, as Daraja writes it. */
  orgAccountBalance: z.string().nullable(),
  /** Why it failed or was cancelled, in a sentence. */
  reason: z.string().nullable(),
});
export type C2bPayment = z.infer<typeof C2bPaymentSchema>;

export const C2bKeptSchema = z.object({
  c2b: z
    .object({
      shortcodes: z.array(C2bShortcodeSchema),
      payments: z.array(C2bPaymentSchema),
    })
    .default({ shortcodes: [], payments: [] }),
});
export type C2bKept = z.infer<typeof C2bKeptSchema>['c2b'];
