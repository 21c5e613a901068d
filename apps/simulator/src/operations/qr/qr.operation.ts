/**
 * Dynamic QR as one Daraja API of the simulator. It answers at once and keeps nothing: no store,
 * nothing for SIM_STATE, no control routes or live events.
 */
import { z } from 'zod';
import type { DarajaOperation, OperationContext, RunningOperation } from '../operation.ts';
import { qrDocs } from './qr.docs.ts';
import { QR_TARGET, qrRoutes } from './qr.routes.ts';

const nothing = () => {};
const kept = z.object({});

function start({ config, clock }: OperationContext): RunningOperation {
  return {
    darajaRoutes: (app, gate) => qrRoutes(app, gate, { config, clock }),
    controlRoutes: nothing,
    snapshot: () => ({}),
    restore: nothing,
    keep: () => nothing,
    hello: () => ({}),
    subscribe: () => nothing,
    watch: () => nothing,
    reset: nothing,
  };
}

export const qr: DarajaOperation<RunningOperation, typeof kept> = {
  name: 'qr',
  faultTargets: [QR_TARGET],
  kept,
  docs: qrDocs,
  controlDocs: () => ({}),
  start,
};
