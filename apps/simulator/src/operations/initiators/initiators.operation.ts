/**
 * The initiators of the Result APIs as an operation of their own, with no Daraja routes: the
 * book of failures and locks that every API's SecurityCredential check shares (`initiators` in
 * OperationContext), kept by SIM_STATE, cleared by POST /_sim/reset, and its control routes
 * (docs/daraja-protocol.md §M2.6).
 */
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { InitiatorsKeptSchema, type InitiatorBook } from './initiator-book.ts';
import { initiatorsControlDocs } from './initiators.docs.ts';
import { initiatorsControlRoutes } from './initiators.routes.ts';

export interface RunningInitiators extends RunningOperation {
  /** The book every operation's check shares (OperationContext's `initiators`). */
  book: InitiatorBook;
}

function start({ config, initiators }: OperationContext): RunningInitiators {
  return {
    book: initiators,
    darajaRoutes: () => {},
    controlRoutes: (app) => initiatorsControlRoutes(app, config, initiators),
    snapshot: () => ({ initiators: initiators.snapshot() }),
    restore: (saved) => initiators.restore(InitiatorsKeptSchema.parse(saved).initiators),
    keep(changed) {
      initiators.onChange = changed;
      return () => {
        initiators.onChange = undefined;
      };
    },
    hello: () => ({}),
    subscribe: () => () => {},
    watch: () => () => {},
    reset: () => initiators.reset(),
  };
}

export const initiators: DarajaOperation<RunningInitiators, typeof InitiatorsKeptSchema> = {
  name: 'initiators',
  faultTargets: [],
  kept: InitiatorsKeptSchema,
  docs: () => ({}),
  controlDocs: initiatorsControlDocs,
  start,
};
