/** The ledger's part of the control API (money.routes.ts) as the simulator's description shows it. */
import type { RouteDocs } from '../../route-docs.ts';
import { CONTROL_TAGS, errors, invalid, shown } from '../../routes/docs-kit.ts';
import { AMOUNT_RULE, MAX_WALLET_RULE, SHORTCODE_RULE } from './money.routes.ts';
import { PAYBILL, STK_PAYMENT, WALLET } from './examples.ts';

const ledgerDocs: RouteDocs = {
  summary: 'The simulated money: accounts, wallets and recent transactions',
  description:
    'Each business shortcode the simulator has met, with its accounts by Daraja’s names and its ' +
    'balance as account balance gives it (`accountBalance`); each customer’s wallet; and the ' +
    'newest transactions first (`limit`, 100 unless said, at most 1000). Amounts are written as ' +
    'Daraja writes them: shillings with two decimals.',
  tags: CONTROL_TAGS,
  response: {
    200: shown('Everything the ledger holds.', {
      ledger: {
        summary: 'After one STK payment',
        value: { shortcodes: [PAYBILL], wallets: [WALLET], transactions: [STK_PAYMENT] },
      },
    }),
    ...errors({
      400: invalid('A limit above 1000', 'querystring/limit Too big: expected number to be <=1000'),
    }),
  },
};

const shortcodeDocs: RouteDocs = {
  summary: 'Set a shortcode’s balances, name or kind',
  description:
    '`balances` by Daraja’s account names, in shillings (`1500` or `"1500.00"`): a paybill has ' +
    'a Working, Float, Utility, Charges Paid and Organization Settlement Account, a till a ' +
    'Merchant and a Charges Paid Account. Accounts not named keep their balance; a shortcode not ' +
    'yet known is known from now on. Only the Charges Paid Account goes below zero. A balance ' +
    'is at most 1,000,000,000,000.00 (the simulator’s own bound, which keeps every sum exact; ' +
    'the Charges Paid Account at least its negative), and a payment past it is refused. `kind` ' +
    '(`paybill` or `till`) changed starts the shortcode again with that kind’s accounts.',
  tags: CONTROL_TAGS,
  response: {
    200: shown('The shortcode, as GET /_sim/ledger shows it.', {
      set: { summary: 'A utility account set to KES 2,500.00', value: PAYBILL },
    }),
    ...errors({
      400: {
        ...invalid('Not a shortcode', `params/shortcode ${SHORTCODE_RULE}`),
        account: {
          summary: 'An account the kind does not have',
          error:
            'A till has no Utility Account: its accounts are Merchant Account, Charges Paid Account',
        },
        amount: {
          summary: 'An amount with three decimals',
          error: `body/balances/Utility Account ${AMOUNT_RULE}`,
        },
      },
    }),
  },
};

const walletDocs: RouteDocs = {
  summary: 'Set a customer’s wallet: balance, name, registered',
  description:
    '`balance` in shillings, from 0 to 500,000 (M-PESA’s maximum balance); `name` as Daraja’s ' +
    'results give it (`254708374149 - John Doe`), 1 to 60 characters, no control characters ' +
    '(line breaks, tabs); `registered` false for a number M-PESA does ' +
    'not know as a registered customer. A number not yet known is known from now on.',
  tags: CONTROL_TAGS,
  response: {
    200: shown('The wallet, as GET /_sim/ledger shows it.', {
      set: { summary: 'A wallet set to KES 249,550.00', value: WALLET },
    }),
    ...errors({
      400: {
        ...invalid(
          'Not a Kenyan mobile number',
          'params/msisdn phone must be a Kenyan mobile number',
        ),
        balance: {
          summary: 'More than a wallet may hold',
          error: `body/balance ${MAX_WALLET_RULE}`,
        },
      },
    }),
  },
};

export function moneyControlDocs(): Record<string, RouteDocs> {
  return {
    'GET /_sim/ledger': ledgerDocs,
    'PUT /_sim/ledger/shortcodes/:shortcode': shortcodeDocs,
    'PUT /_sim/ledger/wallets/:msisdn': walletDocs,
  };
}
