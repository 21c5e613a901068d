/**
 * B2C (business to customer payouts, v3 and v1) as one Daraja API of the simulator: its routes,
 * the Results it owes and the v3 OriginatorConversationIDs it has seen, both kept by SIM_STATE,
 * and its magic numbers (docs/daraja-protocol.md §M4).
 */
import { z } from 'zod';
import { OwedResultSchema, OwedResults } from '../../results/owed.ts';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { b2cDocs } from './b2c.docs.ts';
import { B2C_TARGET, b2cRoutes } from './b2c.routes.ts';
import { B2C_MENU } from './outcomes.ts';
import { UsedIds } from './used-ids.ts';

/** SIM_STATE's keys; absent in a file written before B2C. */
const B2cKeptSchema = z.object({
  b2cResults: z.array(OwedResultSchema).default([]),
  b2cOriginatorIds: z.array(z.tuple([z.string(), z.iso.datetime()])).default([]),
});

const nothing = () => {};

export interface RunningB2c extends RunningOperation {
  /** The Results acknowledged and not yet delivered. */
  owed: OwedResults;
}

function start(context: OperationContext): RunningB2c {
  const owed = new OwedResults(context);
  const used = new UsedIds(context.clock);
  context.outcomes.register('b2c', B2C_MENU);
  return {
    owed,
    darajaRoutes: (app, gate) => b2cRoutes(app, gate, context, { owed, used }),
    controlRoutes: nothing,
    snapshot: () => ({ b2cResults: owed.snapshot(), b2cOriginatorIds: used.snapshot() }),
    restore(saved) {
      const kept = B2cKeptSchema.parse(saved);
      used.restore(kept.b2cOriginatorIds);
      owed.restore(kept.b2cResults);
    },
    keep: (changed, saved) => owed.keep(changed, saved),
    hello: () => ({}),
    subscribe: () => nothing,
    watch: () => nothing,
    reset() {
      owed.reset();
      used.reset();
    },
  };
}

export const b2c: DarajaOperation<RunningB2c, typeof B2cKeptSchema> = {
  name: 'b2c',
  faultTargets: [B2C_TARGET],
  kept: B2cKeptSchema,
  docs: b2cDocs,
  controlDocs: () => ({}),
  start,
};
