/**
 * The numbers' next outcomes for every API but STK push (next-outcomes.ts) as an operation of its
 * own, with no Daraja routes: kept by SIM_STATE, cleared by POST /_sim/reset. Its control route is
 * STK's PUT /_sim/numbers/:phone/next, which takes an `api` (operations/stk/prompts.routes.ts).
 */
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { OutcomesKeptSchema, type NextOutcomes } from './next-outcomes.ts';

export interface RunningOutcomes extends RunningOperation {
  outcomes: NextOutcomes;
}

function start({ outcomes }: OperationContext): RunningOutcomes {
  return {
    outcomes,
    darajaRoutes: () => {},
    controlRoutes: () => {},
    snapshot: () => outcomes.snapshot(),
    restore: (saved) => outcomes.restore(OutcomesKeptSchema.parse(saved)),
    keep(changed) {
      outcomes.onChange = changed;
      return () => {
        outcomes.onChange = undefined;
      };
    },
    // Each API's magic numbers, beside STK push's `forcedNumbers`.
    info: () => ({ forcedNumbersByApi: outcomes.forcedNumbers() }),
    hello: () => ({}),
    subscribe: () => () => {},
    watch: () => () => {},
    reset: () => outcomes.reset(),
  };
}

export const outcomes: DarajaOperation<RunningOutcomes, typeof OutcomesKeptSchema> = {
  name: 'outcomes',
  faultTargets: [],
  kept: OutcomesKeptSchema,
  docs: () => ({}),
  controlDocs: () => ({}),
  start,
};
