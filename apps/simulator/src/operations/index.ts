/**
 * The Daraja APIs the simulator speaks, one folder each (operation.ts says what each gives). A new
 * API is a new folder and one line here. The order is the order of their routes, their keys in
 * the SIM_STATE file and their names in the fault rules.
 */
import type { DarajaOperation, OperationContext } from './operation.ts';
import { qr } from './qr/qr.operation.ts';
import { stk } from './stk/stk.operation.ts';

export const OPERATIONS = {
  stk,
  qr,
} satisfies Record<string, DarajaOperation>;

/** Each operation, running: by name, as its own `start` made it. */
export type RunningOperations = {
  [Name in keyof typeof OPERATIONS]: ReturnType<(typeof OPERATIONS)[Name]['start']>;
};

export function startOperations(context: OperationContext): RunningOperations {
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, operation]) => [name, operation.start(context)]),
  ) as RunningOperations;
}
