/**
 * The control API under /_sim/: what tests (ours and anyone's) and the virtual phone use to drive
 * the simulator. Not part of Daraja. It answers this machine only unless SIM_REMOTE_CONTROL says
 * otherwise (remote-access.ts), and shows prompts and the log with their secrets masked (redact.ts).
 * Each Daraja API adds its own routes (operations/); these are the simulator's.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORCED_NUMBERS, RESULT_CODES } from '../catalogue.ts';
import type { SimClock } from '../clock.ts';
import type { SimulatorConfig } from '../config.ts';
import { faultsSchema } from '../fault-rules.ts';
import type { FaultPlan } from '../faults.ts';
import type { ControlApp, RunningOperation } from '../operations/operation.ts';
import type { RequestLog } from '../request-log.ts';
import type { TokenStore } from '../tokens.ts';
import { eventsRoute } from './events.routes.ts';

export interface ControlRoutesOptions {
  config: SimulatorConfig;
  operations: RunningOperation[];
  log: RequestLog;
  tokens: TokenStore;
  clock: SimClock;
  faults: FaultPlan;
}

/** The furthest one POST /_sim/clock/advance moves the clock: 30 days. */
export const MAX_ADVANCE_S = 30 * 24 * 3600;

const advanceSchema = z
  .object({
    seconds: z
      .number({ error: 'must be a number of seconds' })
      .positive('must be more than 0 (the clock only goes forward)')
      .max(MAX_ADVANCE_S, `must be at most ${MAX_ADVANCE_S} (30 days)`),
  })
  .strict();

/** GET /_sim/info's answer (its description shows a fresh simulator's). */
export function simulatorInfo(
  config: SimulatorConfig,
  now: { faultRules: number; clockAheadMs: number },
) {
  return {
    shortcode: config.shortcode,
    businessName: config.businessName,
    pin: config.pin,
    callbackDelayMs: config.callbackDelayMs,
    autoApproveS: config.autoApproveS,
    promptTimeoutS: config.promptTimeoutS,
    tokenTtlS: config.tokenTtlS,
    forcedNumbers: FORCED_NUMBERS,
    resultCodes: RESULT_CODES,
    ...now,
  };
}

/** GET /_sim/info, POST /_sim/reset and the fault rules. */
function settingsRoutes(app: ControlApp, options: ControlRoutesOptions) {
  const { config, operations, log, clock, faults } = options;
  app.get('/info', async () => ({
    ...simulatorInfo(config, {
      faultRules: faults.list().rules.length,
      clockAheadMs: clock.offsetMs,
    }),
    ...Object.assign({}, ...operations.map((operation) => operation.info?.() ?? {})),
  }));

  // The clock is not moved back: time only goes forward, and tokens (which a reset keeps) expire
  // by it.
  app.post('/reset', async (_request, reply) => {
    for (const operation of operations) operation.reset();
    log.clear();
    faults.clear();
    return reply.code(204).send();
  });

  app.get('/faults', async () => faults.list());

  app.put('/faults', { schema: { body: faultsSchema } }, async (request) => {
    faults.set(request.body);
    return faults.list();
  });

  app.delete('/faults', async (_request, reply) => {
    faults.clear();
    return reply.code(204).send();
  });
}

/** GET /_sim/clock and POST /_sim/clock/advance. */
function clockRoutes(app: ControlApp, clock: SimClock) {
  /** The simulator's time, and how far it is ahead of the real clock. */
  const time = () => ({ now: clock.now().toISOString(), aheadMs: clock.offsetMs });

  app.get('/clock', async () => time());

  // Prompts time out, auto-approvals and delayed callbacks happen, and tokens expire, as they fall
  // due within the move (the callbacks are on their way when this answers).
  app.post('/clock/advance', { schema: { body: advanceSchema } }, async (request) => {
    const fired = clock.advance(Math.round(request.body.seconds * 1000));
    return { ...time(), fired };
  });
}

/** GET /_sim/log and POST /_sim/tokens/expire. */
function logAndTokenRoutes(app: ControlApp, log: RequestLog, tokens: TokenStore) {
  app.get(
    '/log',
    {
      schema: {
        querystring: z.object({
          kind: z.enum(['request', 'callback']).optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
      },
    },
    async (request) => ({ entries: log.list(request.query) }),
  );

  app.post('/tokens/expire', async (_request, reply) => {
    tokens.expireAll();
    return reply.code(204).send();
  });
}

export const controlRoutes: FastifyPluginAsyncZod<ControlRoutesOptions> = async (app, options) => {
  settingsRoutes(app, options);
  clockRoutes(app, options.clock);
  for (const operation of options.operations) operation.controlRoutes(app);
  logAndTokenRoutes(app, options.log, options.tokens);
  eventsRoute(app, options.log, options.operations);
};
