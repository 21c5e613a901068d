/**
 * The simulated money as an operation of the simulator: it has no Daraja routes of its own (STK
 * push, C2B, B2C and the rest move the money, through the ledger every operation is given), but it
 * owns the ledger: SIM_STATE keeps it under `ledger`, POST /_sim/reset forgets it, the control API
 * shows it and sets balances, and the event stream tells each transaction.
 */
import { z } from 'zod';
import { LedgerStateSchema } from '../../money/ledger.schema.ts';
import type { Ledger, LedgerEvent } from '../../money/ledger.ts';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { moneyControlDocs } from './money.docs.ts';
import { moneyControlRoutes } from './money.routes.ts';
import { toldTransaction } from './shown.ts';

/** A file written before the ledger was kept has none: the ledger starts afresh. */
export const MoneyKeptSchema = z.object({ ledger: LedgerStateSchema.optional() });

export interface RunningMoney extends RunningOperation {
  /** The ledger every operation shares (operation.ts). */
  ledger: Ledger;
}

function start({ ledger }: OperationContext): RunningMoney {
  return {
    ledger,
    darajaRoutes: () => {},
    controlRoutes: (app) => moneyControlRoutes(app, ledger),
    snapshot: () => ({ ledger: ledger.snapshot() }),
    restore(saved) {
      const kept = MoneyKeptSchema.parse(saved).ledger;
      if (kept) ledger.restore(kept);
    },
    keep(changed) {
      ledger.on('change', changed);
      return () => ledger.off('change', changed);
    },
    // The phone's messages for money moved by the APIs after STK push (whose prompts tell theirs).
    hello: () => ({
      transactions: ledger
        .transactions(50)
        .filter((transaction) => transaction.kind !== 'stk')
        .map((transaction) => toldTransaction(ledger, transaction)),
    }),
    subscribe(send) {
      const onChange = (event: LedgerEvent) => {
        if (event.type === 'transaction')
          send('transaction', toldTransaction(ledger, event.transaction));
      };
      ledger.on('change', onChange);
      return () => ledger.off('change', onChange);
    },
    watch: () => () => {},
    reset: () => ledger.reset(),
  };
}

export const money: DarajaOperation<RunningMoney, typeof MoneyKeptSchema> = {
  name: 'money',
  faultTargets: [],
  kept: MoneyKeptSchema,
  docs: () => ({}),
  controlDocs: moneyControlDocs,
  start,
};
