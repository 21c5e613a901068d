/**
 * M-PESA Express (STK push and STK query) as one Daraja API of the simulator: its prompt book, its
 * Daraja and control routes, what SIM_STATE keeps of it, its live events and its docs.
 */
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { payFromWallet } from './payment.ts';
import { PromptBook, type SimEvent } from './prompt-book.ts';
import { StkKeptSchema } from './prompt.ts';
import { promptsControlDocs } from './prompts.docs.ts';
import { promptsControlRoutes, shown } from './prompts.routes.ts';
import { stkDocs } from './stk.docs.ts';
import { STK_TARGETS, stkRoutes } from './stk.routes.ts';

export interface RunningStk extends RunningOperation {
  /** The simulated payers' phones (the simulator's `prompts`). */
  prompts: PromptBook;
}

function start({ config, clock, faults, log, ledger, outcomes }: OperationContext): RunningStk {
  const prompts = new PromptBook(config, clock, faults);
  prompts.pay = (prompt) => payFromWallet(ledger, prompt);
  prompts.on('change', (event) => {
    if (event.type === 'callback') log.add({ kind: 'callback', ...event.attempt });
  });
  return {
    prompts,
    darajaRoutes: (app, gate) => stkRoutes(app, gate, { config, prompts }),
    controlRoutes: (app) => promptsControlRoutes(app, prompts, outcomes),
    snapshot: () => prompts.snapshot(),
    restore: (saved) => prompts.restore(StkKeptSchema.parse(saved)),
    keep(changed, saved) {
      prompts.on('change', changed);
      prompts.saved = saved;
      return () => {
        prompts.off('change', changed);
        prompts.saved = undefined;
      };
    },
    hello: () => ({ prompts: prompts.list().slice(0, 50).map(shown) }),
    subscribe(send) {
      const onChange = (event: SimEvent) => {
        if (event.type === 'prompt') send('prompt', { ...event, prompt: shown(event.prompt) });
        else if (event.type === 'reset') send('reset', event);
      };
      prompts.on('change', onChange);
      return () => prompts.off('change', onChange);
    },
    watch: (phoneNumber) => prompts.watch(phoneNumber),
    reset: () => prompts.reset(),
  };
}

export const stk: DarajaOperation<RunningStk, typeof StkKeptSchema> = {
  name: 'stk',
  faultTargets: [STK_TARGETS.push, STK_TARGETS.query],
  kept: StkKeptSchema,
  docs: stkDocs,
  controlDocs: promptsControlDocs,
  start,
};
