/**
 * Test rig for the Result family (results/): a running simulator, the context its operations
 * deliver with, a receiver for ResultURL and one for QueueTimeOutURL, and a Result to send.
 */
import { loadSimulatorConfig } from '../config.ts';
import type { OperationContext } from '../operations/operation.ts';
import { deliverResult, type ResultDelivery } from '../results/deliver.ts';
import { startConversation, type ResultOutcome } from '../results/result.ts';
import { call, startReceiver, startSimulator, type Harness, type Receiver } from './harness.ts';

export interface ResultRig {
  sim: Harness;
  context: Pick<OperationContext, 'config' | 'clock' | 'faults' | 'log'>;
  results: Receiver;
  timeouts: Receiver;
  /** A B2C payout's success, with new ids. */
  outcome(): ResultOutcome;
  /** Delivers it (or `made`) to the two receivers. */
  deliver(made?: ResultOutcome, more?: Partial<ResultDelivery>): ReturnType<typeof deliverResult>;
  control(route: string, body?: unknown, method?: string): ReturnType<typeof call>;
  close(): Promise<void>;
}

/** The simulator with these settings (SIM_CALLBACK_DELAY_MS 50 unless given). */
export async function startResultRig(env: Record<string, string> = {}): Promise<ResultRig> {
  const settings = { SIM_CALLBACK_DELAY_MS: '50', ...env };
  const sim = await startSimulator(settings);
  const { clock, faults, log } = sim;
  const context = { config: loadSimulatorConfig(settings), clock, faults, log };
  const results = await startReceiver();
  const timeouts = await startReceiver();
  const outcome = (): ResultOutcome => ({
    conversation: startConversation(clock.now()),
    resultCode: '0',
    resultDesc: 'The service request is processed successfully.',
    transactionId: 'SG632NMUAB',
    parameters: [{ Key: 'TransactionAmount', Value: 10 }],
    queue: 'b2c',
  });
  return {
    sim,
    context,
    results,
    timeouts,
    outcome,
    deliver: (made = outcome(), more = {}) =>
      deliverResult(
        { outcome: made, resultUrl: results.url, queueTimeoutUrl: timeouts.url, ...more },
        context,
      ),
    control: (route, body, method = 'POST') =>
      call(`${sim.url}/_sim${route}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body,
      }),
    async close() {
      await sim.close();
      await results.close();
      await timeouts.close();
    },
  };
}
