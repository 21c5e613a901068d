/**
 * What fault rules (faults.ts) may name: `oauth`, each Daraja API's requests as its folder in
 * operations/ names them, and `callback` (every callback, whichever API it reports on).
 */
import { faultRulesSchema } from './faults.ts';
import { OPERATIONS } from './operations/index.ts';

export const FAULT_TARGETS = [
  'oauth',
  ...Object.values(OPERATIONS).flatMap((operation) => operation.faultTargets),
  'callback',
] as const;

/** A name a fault rule may give (`stkpush`, `callback`, …). */
export type Operation = (typeof FAULT_TARGETS)[number];

/** PUT /_sim/faults's body, and the rules SIM_STATE keeps. */
export const faultsSchema = faultRulesSchema(FAULT_TARGETS);
