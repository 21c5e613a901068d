/**
 * C2B (customer to business) as one Daraja API of the simulator (docs/daraja-protocol.md §M3):
 * register URL and simulate on v1 and v2, the validation and confirmation requests to the
 * merchant, the money in the ledger, its control routes, what SIM_STATE keeps of it, its live
 * events and its docs.
 */
import { RESULT_CODES } from '../../catalogue.ts';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { C2bBook, type C2bEvent } from './c2b-book.ts';
import { C2bKeptSchema } from './c2b-kept.ts';
import { c2bControlRoutes, shownPayment, shownShortcode } from './c2b.control.ts';
import { c2bControlDocs, c2bDocs } from './c2b.docs.ts';
import { C2B_TARGETS, c2bRoutes } from './c2b.routes.ts';
import { C2B_API, C2bPayments, MERCHANT_SILENT } from './payments.ts';

/** What a number's next C2B payment can be made to play, and the magic numbers (README). */
export const C2B_OUTCOMES = {
  resultCodes: {
    '0': 'Paid as usual; a fault given applies to the confirmation.',
    '1': RESULT_CODES['1']!,
    [MERCHANT_SILENT]:
      "The merchant's validation answer is not awaited: the registered ResponseType decides.",
  },
  forcedNumbers: {
    '254700300001': { resultCode: '1', meaning: 'The wallet cannot pay: nothing is sent.' },
    '254700300408': {
      resultCode: MERCHANT_SILENT,
      meaning: 'The validation answer never comes in time: ResponseType decides.',
    },
  },
};

export interface RunningC2b extends RunningOperation {
  book: C2bBook;
  payments: C2bPayments;
}

function start(context: OperationContext): RunningC2b {
  const { config, clock, log, outcomes } = context;
  const book = new C2bBook();
  const payments = new C2bPayments(book, context);
  outcomes.register(C2B_API, C2B_OUTCOMES);
  book.on('change', (event) => {
    if (event.type === 'callback') log.add({ kind: 'callback', ...event.attempt });
  });
  return {
    book,
    payments,
    darajaRoutes: (app, gate) => c2bRoutes(app, gate, { config, clock, book, payments }),
    controlRoutes: (app) => c2bControlRoutes(app, { book, payments, pin: config.pin }),
    snapshot: () => ({ c2b: book.snapshot() }),
    restore(saved) {
      book.restore(C2bKeptSchema.parse(saved).c2b);
      payments.resume();
    },
    keep(changed, saved) {
      book.on('change', changed);
      book.saved = saved;
      return () => {
        book.off('change', changed);
        book.saved = undefined;
      };
    },
    hello: () => ({ c2bPayments: book.payments().slice(0, 50).map(shownPayment) }),
    subscribe(send) {
      const onChange = (event: C2bEvent) => {
        if (event.type === 'payment') send('c2b', { payment: shownPayment(event.payment) });
        else if (event.type === 'shortcode') {
          send('c2b', { shortcode: shownShortcode(event.shortcode) });
        }
      };
      book.on('change', onChange);
      return () => book.off('change', onChange);
    },
    watch: () => () => {},
    reset: () => book.reset(),
  };
}

export const c2b: DarajaOperation<RunningC2b, typeof C2bKeptSchema> = {
  name: 'c2b',
  faultTargets: [C2B_TARGETS.register, C2B_TARGETS.simulate],
  kept: C2bKeptSchema,
  docs: c2bDocs,
  controlDocs: c2bControlDocs,
  start,
};
