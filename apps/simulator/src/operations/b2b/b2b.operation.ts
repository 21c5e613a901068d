/**
 * B2B (BusinessPayBill and BusinessBuyGoods) as one Daraja API of the simulator: its route, the
 * Results it owes, kept by SIM_STATE, and its magic shortcodes (docs/daraja-protocol.md §M8.1).
 */
import { z } from 'zod';
import { OwedResultSchema, OwedResults } from '../../results/owed.ts';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { b2bDocs } from './b2b.docs.ts';
import { B2B_TARGET, b2bRoutes } from './b2b.routes.ts';
import { B2B_MENU } from './payment.ts';

/** SIM_STATE's key; absent in a file written before B2B. */
const B2bKeptSchema = z.object({ b2bResults: z.array(OwedResultSchema).default([]) });

const nothing = () => {};

export interface RunningB2b extends RunningOperation {
  owed: OwedResults;
}

function start(context: OperationContext): RunningB2b {
  const owed = new OwedResults(context);
  context.outcomes.register('b2b', B2B_MENU);
  return {
    owed,
    darajaRoutes: (app, gate) => b2bRoutes(app, gate, context, owed),
    controlRoutes: nothing,
    snapshot: () => ({ b2bResults: owed.snapshot() }),
    restore: (saved) => owed.restore(B2bKeptSchema.parse(saved).b2bResults),
    keep: (changed, saved) => owed.keep(changed, saved),
    hello: () => ({}),
    subscribe: () => nothing,
    watch: () => nothing,
    reset: () => owed.reset(),
  };
}

export const b2b: DarajaOperation<RunningB2b, typeof B2bKeptSchema> = {
  name: 'b2b',
  faultTargets: [B2B_TARGET],
  kept: B2bKeptSchema,
  docs: b2bDocs,
  controlDocs: () => ({}),
  start,
};
