/**
 * The control API under /_sim/: what tests (ours and anyone's) and the virtual phone use to drive
 * the simulator. Not part of Daraja. It answers this machine only unless SIM_REMOTE_CONTROL says
 * otherwise (remote-access.ts), and shows prompts and the log with their secrets masked (redact.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORCED_NUMBERS, REFUSALS, RESULT_CODES, type RefusalName } from '../catalogue.ts';
import type { SimClock } from '../clock.ts';
import { faultsSchema, type FaultPlan } from '../faults.ts';
import type { PromptBook, NextOutcome, Prompt, SimEvent } from '../prompts.ts';
import type { RequestLog } from '../request-log.ts';
import { redactUrl } from '../redact.ts';
import type { TokenStore } from '../tokens.ts';
import type { SimulatorConfig } from '../config.ts';

export interface ControlRoutesOptions {
  config: SimulatorConfig;
  prompts: PromptBook;
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

/** 0712345678, 712345678, +254712345678 or 254712345678 → 254712345678. */
const phoneParam = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .transform((value) =>
    value
      .replace(/^\+/, '')
      .replace(/^0(?=[17])/, '254')
      .replace(/^(?=[17]\d{8}$)/, '254'),
  )
  .pipe(z.string().regex(/^254[17]\d{8}$/, 'phone must be a Kenyan mobile number'));

const faultSchema = z
  .object({
    duplicates: z.number().int().min(0).max(10).optional(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    drop: z.boolean().optional(),
    retries: z.number().int().min(0).max(10).optional(),
    retryIntervalMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict();

const resultCodeSchema = z.string().refine((code) => code in RESULT_CODES, {
  message: `resultCode must be one of ${Object.keys(RESULT_CODES).join(', ')}`,
});

const nextSchema = z
  .object({
    outcome: z
      .union([
        z.enum(['auto', 'manual', 'paid-no-callback']),
        z.enum(Object.keys(REFUSALS) as [RefusalName, ...RefusalName[]]),
        resultCodeSchema,
      ])
      .optional(),
    fault: faultSchema.optional(),
  })
  .strict();

/** A prompt as the control API and the events show it: its callback URL's secret masked. */
function shown(prompt: Prompt): Prompt {
  return { ...prompt, callbackUrl: redactUrl(prompt.callbackUrl) };
}

function toNext(body: z.infer<typeof nextSchema>): NextOutcome {
  const outcome = body.outcome;
  const next: NextOutcome = {};
  if (outcome === 'auto' || outcome === 'manual' || outcome === 'paid-no-callback') {
    next.outcome = { kind: outcome };
  } else if (outcome !== undefined && outcome in REFUSALS) {
    next.outcome = { kind: 'refuse', error: outcome as RefusalName };
  } else if (outcome !== undefined) {
    next.outcome = { kind: 'result', resultCode: outcome };
  }
  if (body.fault) next.fault = body.fault;
  return next;
}

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

export const controlRoutes: FastifyPluginAsyncZod<ControlRoutesOptions> = async (
  app,
  { config, prompts, log, tokens, clock, faults },
) => {
  const idParams = z.object({ id: z.string().min(1).max(100) });

  function endPrompt(id: string, end: () => unknown) {
    const prompt = prompts.get(id);
    if (!prompt) return { status: 404, body: { error: 'No such prompt' } } as const;
    if (prompt.state !== 'open')
      return {
        status: 409,
        body: { error: 'The prompt has already ended', prompt: shown(prompt) },
      } as const;
    end();
    return { status: 200, body: shown(prompts.get(id) ?? prompt) } as const;
  }

  app.get('/info', async () =>
    simulatorInfo(config, { faultRules: faults.list().rules.length, clockAheadMs: clock.offsetMs }),
  );

  // The clock is not moved back: time only goes forward, and tokens (which a reset keeps) expire
  // by it.
  app.post('/reset', async (_request, reply) => {
    prompts.reset();
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

  /** The simulator's time, and how far it is ahead of the real clock. */
  const time = () => ({ now: clock.now().toISOString(), aheadMs: clock.offsetMs });

  app.get('/clock', async () => time());

  // Prompts time out, auto-approvals and delayed callbacks happen, and tokens expire, as they fall
  // due within the move (the callbacks are on their way when this answers).
  app.post('/clock/advance', { schema: { body: advanceSchema } }, async (request) => {
    const fired = clock.advance(Math.round(request.body.seconds * 1000));
    return { ...time(), fired };
  });

  app.get(
    '/prompts',
    {
      schema: {
        querystring: z.object({
          phone: phoneParam.optional(),
          state: z.enum(['open', 'completed']).optional(),
        }),
      },
    },
    async (request) => {
      const { phone, state } = request.query;
      const list = prompts.list(phone ? { phoneNumber: phone } : {});
      return {
        prompts: (state ? list.filter((prompt) => prompt.state === state) : list).map(shown),
      };
    },
  );

  app.get('/prompts/:id', { schema: { params: idParams } }, async (request, reply) => {
    const prompt = prompts.get(request.params.id);
    return prompt ? shown(prompt) : reply.code(404).send({ error: 'No such prompt' });
  });

  app.post(
    '/prompts/:id/pin',
    { schema: { params: idParams, body: z.object({ pin: z.string().max(12) }) } },
    async (request, reply) => {
      const result = endPrompt(request.params.id, () =>
        prompts.enterPin(request.params.id, request.body.pin),
      );
      return reply.code(result.status).send(result.body);
    },
  );

  app.post('/prompts/:id/cancel', { schema: { params: idParams } }, async (request, reply) => {
    const result = endPrompt(request.params.id, () =>
      prompts.complete(request.params.id, '1032', 'cancel'),
    );
    return reply.code(result.status).send(result.body);
  });

  app.post('/prompts/:id/timeout', { schema: { params: idParams } }, async (request, reply) => {
    const result = endPrompt(request.params.id, () =>
      prompts.complete(request.params.id, '1037', 'timeout'),
    );
    return reply.code(result.status).send(result.body);
  });

  app.post(
    '/prompts/:id/result',
    { schema: { params: idParams, body: z.object({ resultCode: resultCodeSchema }) } },
    async (request, reply) => {
      const result = endPrompt(request.params.id, () =>
        prompts.complete(request.params.id, request.body.resultCode, 'control api'),
      );
      return reply.code(result.status).send(result.body);
    },
  );

  app.put(
    '/numbers/:phone/next',
    { schema: { params: z.object({ phone: phoneParam }), body: nextSchema } },
    async (request) => {
      prompts.setNext(request.params.phone, toNext(request.body));
      return { phoneNumber: request.params.phone, next: request.body };
    },
  );

  app.delete(
    '/numbers/:phone/next',
    { schema: { params: z.object({ phone: phoneParam }) } },
    async (request, reply) => {
      prompts.clearNext(request.params.phone);
      return reply.code(204).send();
    },
  );

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

  // Server-sent events: prompts and log entries as they happen. A phone page passes watch=1 (and
  // optionally a phone) so that auto-approval waits while a person is looking at the prompt.
  app.get(
    '/events',
    {
      schema: {
        querystring: z.object({
          watch: z.enum(['0', '1']).default('0'),
          phone: phoneParam.optional(),
        }),
      },
    },
    async (request, reply) => {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
      });
      const send = (event: string, data: unknown) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('hello', {
        prompts: prompts.list().slice(0, 50).map(shown),
        log: log.list({ limit: 100 }),
      });
      const onPrompt = (event: SimEvent) => {
        if (event.type === 'prompt') send('prompt', { ...event, prompt: shown(event.prompt) });
        else if (event.type === 'reset') send('reset', event);
      };
      const onEntry = (entry: unknown) => send('log', entry);
      prompts.on('change', onPrompt);
      log.on('entry', onEntry);
      const unwatch =
        request.query.watch === '1' ? prompts.watch(request.query.phone ?? '*') : undefined;
      const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      reply.raw.on('close', () => {
        clearInterval(keepAlive);
        prompts.off('change', onPrompt);
        log.off('entry', onEntry);
        unwatch?.();
      });
    },
  );
};
