/**
 * STK's part of the control API (/_sim/): the prompts (list, end them with a PIN, a cancel, a
 * timeout or any result code) and the next push to a number (its outcome and how its callback is
 * delivered). Prompts are shown with their callback URL's secret masked (redact.ts).
 */
import { z } from 'zod';
import { DeliveryFaultSchema } from '../../callbacks.ts';
import { REFUSALS, RESULT_CODES, RefusalNameSchema, type RefusalName } from '../../catalogue.ts';
import { redactUrl } from '../../redact.ts';
import { phoneParam } from '../../routes/phone-param.ts';
import type { ControlApp } from '../operation.ts';
import type { NextOutcomes } from '../outcomes/next-outcomes.ts';
import type { PromptBook } from './prompt-book.ts';
import type { NextOutcome, Prompt } from './prompt.ts';

const resultCodeSchema = z.string().refine((code) => Object.hasOwn(RESULT_CODES, code), {
  message: `resultCode must be one of ${Object.keys(RESULT_CODES).join(', ')}`,
});

const stkOutcomeSchema = z.union([
  z.enum(['auto', 'manual', 'paid-no-callback']),
  RefusalNameSchema,
  resultCodeSchema,
]);

/**
 * PUT /_sim/numbers/:phone/next's body: an outcome as a word or a result code, for STK push
 * unless `api` names another API (whose result codes next-outcomes.ts checks).
 */
const nextBodySchema = z
  .object({
    api: z.string().max(20).optional(),
    outcome: z.string().max(40).optional(),
    fault: DeliveryFaultSchema.optional(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.api !== undefined && body.api !== 'stk') return;
    const checked = stkOutcomeSchema.optional().safeParse(body.outcome);
    for (const issue of checked.error?.issues ?? []) {
      context.addIssue({ code: 'custom', path: ['outcome'], message: issue.message });
    }
  });

/** A prompt as the control API and the events show it: its callback URL's secret masked. */
export function shown(prompt: Prompt): Prompt {
  return { ...prompt, callbackUrl: redactUrl(prompt.callbackUrl) };
}

/** STK push's choice, once the body's `outcome` has passed `stkOutcomeSchema`. */
interface StkNext {
  outcome?: z.infer<typeof stkOutcomeSchema> | undefined;
  fault?: z.infer<typeof DeliveryFaultSchema> | undefined;
}

function toNext(body: StkNext): NextOutcome {
  const outcome = body.outcome;
  const next: NextOutcome = {};
  if (outcome === 'auto' || outcome === 'manual' || outcome === 'paid-no-callback') {
    next.outcome = { kind: outcome };
  } else if (outcome !== undefined && Object.hasOwn(REFUSALS, outcome)) {
    next.outcome = { kind: 'refuse', error: outcome as RefusalName };
  } else if (outcome !== undefined) {
    next.outcome = { kind: 'result', resultCode: outcome };
  }
  if (body.fault) next.fault = body.fault;
  return next;
}

const idParams = z.object({ id: z.string().min(1).max(100) });

/** GET /_sim/prompts and /_sim/prompts/:id. */
function promptRoutes(app: ControlApp, prompts: PromptBook) {
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
}

/** POST /_sim/prompts/:id/pin, cancel, timeout and result: each ends an open prompt. */
function endingRoutes(app: ControlApp, prompts: PromptBook) {
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
}

/** PUT and DELETE /_sim/numbers/:phone/next: STK push's own, or another API's (`api`). */
function nextRoutes(app: ControlApp, prompts: PromptBook, outcomes: NextOutcomes) {
  app.put(
    '/numbers/:phone/next',
    { schema: { params: z.object({ phone: phoneParam }), body: nextBodySchema } },
    async (request, reply) => {
      const { phone } = request.params;
      const { api, outcome, fault } = request.body;
      if (api === undefined || api === 'stk') {
        prompts.setNext(phone, toNext(request.body as StkNext));
      } else {
        if (outcome === undefined)
          return reply.code(400).send({ error: 'body/outcome is required' });
        const problem = outcomes.set(api, phone, { resultCode: outcome, ...(fault && { fault }) });
        if (problem) return reply.code(400).send({ error: `body/${problem}` });
      }
      return { phoneNumber: phone, next: request.body };
    },
  );

  app.delete(
    '/numbers/:phone/next',
    {
      schema: {
        params: z.object({ phone: phoneParam }),
        querystring: z.object({ api: z.string().max(20).optional() }),
      },
    },
    async (request, reply) => {
      const { api } = request.query;
      if (api === undefined || api === 'stk') prompts.clearNext(request.params.phone);
      else if (outcomes.menu(api)) outcomes.clear(api, request.params.phone);
      else {
        return reply.code(400).send({
          error: `querystring/api must be one of ${['stk', ...outcomes.apis()].join(', ')}`,
        });
      }
      return reply.code(204).send();
    },
  );
}

export function promptsControlRoutes(app: ControlApp, prompts: PromptBook, outcomes: NextOutcomes) {
  promptRoutes(app, prompts);
  endingRoutes(app, prompts);
  nextRoutes(app, prompts, outcomes);
}
