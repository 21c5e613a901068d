/**
 * The ledger's part of the control API (/_sim/): everything it holds, and balances set by hand
 * (docs/daraja-protocol.md §M12). Amounts come in as shillings, a number or Daraja's text with at
 * most two decimals (`1000`, `"1000.00"`), and go out as Daraja's text.
 */
import { z } from 'zod';
import {
  SHORTCODE,
  SHORTCODE_MAX_BALANCE,
  ShortcodeKindSchema,
  WALLET_MAX_BALANCE,
} from '../../money/accounts.ts';
import { darajaAmount, toCents } from '../../money/amounts.ts';
import type { Ledger } from '../../money/ledger.ts';
import { phoneParam } from '../../routes/phone-param.ts';
import type { ControlApp } from '../operation.ts';
import { shownShortcode, shownTransaction, shownWallet } from './shown.ts';

export const AMOUNT_RULE = 'must be shillings with at most two decimals, like 1500 or "1500.00"';

/** Shillings in, cents out. */
const amount = z.union([z.number(), z.string()], { error: AMOUNT_RULE }).transform((value, ctx) => {
  const cents = toCents(value);
  if (cents === undefined) ctx.addIssue({ code: 'custom', message: AMOUNT_RULE });
  return cents ?? 0;
});

/** Line breaks, tabs, escapes: a name is written into messages and logs on one line. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(60, 'must be at most 60 characters')
  .refine((text) => !CONTROL.test(text), 'must not hold control characters');

/** The simulator's bound on a shortcode's account (accounts.ts SHORTCODE_MAX_BALANCE). */
export const MAX_ACCOUNT_RULE = `must be from ${darajaAmount(-SHORTCODE_MAX_BALANCE)} (the Charges Paid Account; the others 0.00) to ${darajaAmount(SHORTCODE_MAX_BALANCE)}, the most the simulator lets an account hold`;

export const MAX_WALLET_RULE = `must be from 0.00 to ${darajaAmount(WALLET_MAX_BALANCE)}, M-PESA's maximum balance`;

const shortcodeBody = z
  .object({
    kind: ShortcodeKindSchema.optional(),
    name: name.optional(),
    balances: z
      .record(
        z.string(),
        amount.pipe(
          z
            .number()
            .min(-SHORTCODE_MAX_BALANCE, MAX_ACCOUNT_RULE)
            .max(SHORTCODE_MAX_BALANCE, MAX_ACCOUNT_RULE),
        ),
      )
      .optional(),
  })
  .strict();

const walletBody = z
  .object({
    balance: amount
      .pipe(z.number().min(0, MAX_WALLET_RULE).max(WALLET_MAX_BALANCE, MAX_WALLET_RULE))
      .optional(),
    name: name.optional(),
    registered: z.boolean().optional(),
  })
  .strict();

export const SHORTCODE_RULE = 'must be 5 to 7 digits';

export function moneyControlRoutes(app: ControlApp, ledger: Ledger) {
  app.get(
    '/ledger',
    {
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
      },
    },
    async (request) => ({
      shortcodes: ledger.shortcodes().map(shownShortcode),
      wallets: ledger.wallets().map(shownWallet),
      transactions: ledger.transactions(request.query.limit).map(shownTransaction),
    }),
  );

  app.put(
    '/ledger/shortcodes/:shortcode',
    {
      schema: {
        params: z.object({ shortcode: z.string().regex(SHORTCODE, SHORTCODE_RULE) }),
        body: shortcodeBody,
      },
    },
    async (request, reply) => {
      const book = ledger.setShortcode(request.params.shortcode, request.body);
      return 'error' in book ? reply.code(400).send(book) : shownShortcode(book);
    },
  );

  app.put(
    '/ledger/wallets/:msisdn',
    { schema: { params: z.object({ msisdn: phoneParam }), body: walletBody } },
    async (request) => shownWallet(ledger.setWallet(request.params.msisdn, request.body)),
  );
}
