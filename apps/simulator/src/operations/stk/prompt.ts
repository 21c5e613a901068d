/**
 * An STK prompt on a simulated payer's phone, and what the control API can ask of a number's next
 * push: the shapes the prompt book holds, the control API shows and SIM_STATE keeps.
 */
import { z } from 'zod';
import { CallbackStateSchema, DeliveryFaultSchema } from '../../callbacks.ts';
import { ForcedOutcomeSchema } from '../../catalogue.ts';

const time = z.iso.datetime();

/** How a prompt ends: at a forced time with a forced result, by auto-approval, or by a person. */
export const PromptPlanSchema = z.enum(['forced', 'auto', 'manual']);
export type PromptPlan = z.infer<typeof PromptPlanSchema>;

export const PromptSchema = z.object({
  checkoutRequestId: z.string().min(1),
  merchantRequestId: z.string(),
  businessShortCode: z.string(),
  transactionType: z.string(),
  amount: z.number(),
  partyA: z.string(),
  partyB: z.string(),
  phoneNumber: z.string(),
  callbackUrl: z.string(),
  accountReference: z.string(),
  transactionDesc: z.string(),
  createdAt: time,
  expiresAt: time,
  plan: PromptPlanSchema,
  /** The result a forced prompt ends with, SIM_CALLBACK_DELAY_MS after it was sent. */
  forcedResult: z.string().nullable(),
  state: z.enum(['open', 'completed']),
  resultCode: z.string().nullable(),
  resultDesc: z.string().nullable(),
  receiptNumber: z.string().nullable(),
  completedAt: time.nullable(),
  completedBy: z.string().nullable(),
  callback: CallbackStateSchema,
  fault: DeliveryFaultSchema,
});
export type Prompt = z.infer<typeof PromptSchema>;

/** What a prompt holds of its outcome while the payer has not answered: nothing yet. */
export const UNANSWERED = {
  state: 'open',
  resultCode: null,
  resultDesc: null,
  receiptNumber: null,
  completedAt: null,
  completedBy: null,
  callback: 'waiting',
} as const satisfies Partial<Prompt>;

/** What a push asks for: the prompt's fields that come from its request. */
export type NewPrompt = Pick<
  Prompt,
  | 'businessShortCode'
  | 'transactionType'
  | 'amount'
  | 'partyA'
  | 'partyB'
  | 'phoneNumber'
  | 'callbackUrl'
  | 'accountReference'
  | 'transactionDesc'
>;

/** What the control API can ask of the next push to a number. */
export const NextOutcomeSchema = z
  .object({
    outcome: z
      .discriminatedUnion('kind', [
        ForcedOutcomeSchema,
        z.object({ kind: z.literal('manual') }),
        z.object({ kind: z.literal('auto') }),
      ])
      .optional(),
    fault: DeliveryFaultSchema.optional(),
  })
  .strict();
export type NextOutcome = z.infer<typeof NextOutcomeSchema>;

/** What SIM_STATE keeps of STK: every prompt, and the numbers' next outcomes. */
export const StkKeptSchema = z.object({
  prompts: z.array(PromptSchema),
  next: z.array(z.tuple([z.string(), NextOutcomeSchema])),
});
export type StkKept = z.infer<typeof StkKeptSchema>;
