/** STK's part of the control API (prompts.routes.ts) as the simulator's description shows it. */
import { RESULT_CODES } from '../../catalogue.ts';
import type { RouteDocs } from '../../route-docs.ts';
import {
  CONTROL_TAGS,
  NO_CONTENT,
  badPhone,
  errors,
  invalid,
  shown,
  type ErrorExamples,
} from '../../routes/docs-kit.ts';
import { OPEN_PROMPT, PROMPT } from './examples.ts';

const NO_SUCH_PROMPT = { notFound: { summary: 'No prompt has this id', error: 'No such prompt' } };

/** A prompt ended by a route: the ended prompt, or why it could not be. */
function endsPrompt(
  summary: string,
  description: string,
  refused: Record<number, ErrorExamples> = {},
): RouteDocs {
  return {
    summary,
    description,
    tags: CONTROL_TAGS,
    response: {
      200: shown('The prompt, ended (its callback is on its way).', {
        ended: { summary: 'Ended', value: PROMPT },
      }),
      ...errors({
        ...refused,
        404: NO_SUCH_PROMPT,
        409: {
          ended: {
            summary: 'The prompt had already ended',
            error: 'The prompt has already ended',
            extra: { prompt: PROMPT },
          },
        },
      }),
    },
  };
}

const promptDocs: Record<string, RouteDocs> = {
  'GET /_sim/prompts': {
    summary: 'Prompts, newest first',
    tags: CONTROL_TAGS,
    response: {
      200: shown('The prompts, their callback URLs’ secrets masked.', {
        prompts: { summary: 'One open prompt', value: { prompts: [OPEN_PROMPT] } },
      }),
      ...errors({ 400: badPhone('querystring') }),
    },
  },
  'GET /_sim/prompts/:id': {
    summary: 'One prompt, by its CheckoutRequestID',
    tags: CONTROL_TAGS,
    response: {
      200: shown('The prompt.', { prompt: { summary: 'A paid prompt', value: PROMPT } }),
      ...errors({ 404: NO_SUCH_PROMPT }),
    },
  },
};

const endingDocs = () => ({
  'POST /_sim/prompts/:id/pin': endsPrompt(
    'Answer the prompt with a PIN',
    `The right PIN (SIM_PIN) pays; another ends the prompt with 2001 ("${RESULT_CODES['2001']}").`,
    {
      400: invalid(
        'The PIN is not text',
        'body/pin Invalid input: expected string, received number',
      ),
    },
  ),
  'POST /_sim/prompts/:id/cancel': endsPrompt(
    'The payer cancels the prompt (1032)',
    'Ends it with 1032.',
  ),
  'POST /_sim/prompts/:id/timeout': endsPrompt(
    'The prompt times out (1037)',
    'Ends it with 1037, as a phone that cannot be reached does.',
  ),
  'POST /_sim/prompts/:id/result': endsPrompt(
    'End the prompt with any result code of Daraja’s catalogue',
    'A success (0) gets a receipt; any other code ends it unpaid.',
    {
      400: invalid(
        'A result code not in the catalogue',
        `body/resultCode resultCode must be one of ${Object.keys(RESULT_CODES).join(', ')}`,
      ),
    },
  ),
});

const nextDocs: Record<string, RouteDocs> = {
  'PUT /_sim/numbers/:phone/next': {
    summary: 'Choose what the next request to a number does',
    description:
      'For STK push (no `api`, or `api` `stk`): `outcome` is a result code, `auto`, `manual`, ' +
      '`paid-no-callback`, or a refusal at once: `busy`, `spike-arrest`, `quota` or ' +
      '`internal-error`. For another API (`api` as GET /_sim/info lists under ' +
      '`forcedNumbersByApi`), `outcome` is one of its result codes. `fault` changes how the ' +
      'callback or Result is delivered: `duplicates`, `delayMs`, `drop`, `retries`, ' +
      '`retryIntervalMs`.',
    tags: CONTROL_TAGS,
    response: {
      200: shown('The choice, kept for the next push to the number.', {
        next: {
          summary: 'The next push is cancelled by the payer, and its callback sent twice',
          value: {
            phoneNumber: '254712345678',
            next: { outcome: '1032', fault: { duplicates: 1 } },
          },
        },
      }),
      ...errors({ 400: badPhone('params') }),
    },
  },
  'DELETE /_sim/numbers/:phone/next': {
    summary: 'Forget the choice for a number (`?api=` for another API than STK push)',
    tags: CONTROL_TAGS,
    response: { ...NO_CONTENT, ...errors({ 400: badPhone('params') }) },
  },
};

export function promptsControlDocs(): Record<string, RouteDocs> {
  return { ...promptDocs, ...endingDocs(), ...nextDocs };
}
