/**
 * The pieces every control route's description is made of (control.docs.ts, and each operation's
 * own): the tag, the error answers with their examples, and answers described by example. The
 * answers are described here only, and shape nothing: the control API has no answer schemas.
 */
import { z } from 'zod';
import { REMOTE_REFUSED } from '../remote-access.ts';
import type { RouteDocs } from '../route-docs.ts';

export const CONTROL_TAGS: [string] = ['Control (/_sim/)'];

const refusal = z.object({ error: z.string() });

/** An error answer's examples, by name. */
export type ErrorExamples = Record<string, { summary: string; error: string; extra?: object }>;

/** An error answer of the control API: `{ "error": "…" }`, by status, with its examples. */
export function errors(named: Record<number, ErrorExamples>): RouteDocs['response'] {
  const all: typeof named = {
    ...named,
    403: {
      remote: {
        summary: 'From another machine, unless SIM_REMOTE_CONTROL=true',
        error: REMOTE_REFUSED,
      },
    },
  };
  return Object.fromEntries(
    Object.entries(all).map(([status, examples]) => [
      status,
      refusal.loose().meta({
        description: 'Refused: `error` says why.',
        'x-examples': Object.fromEntries(
          Object.entries(examples).map(([name, { summary, error, extra }]) => [
            name,
            { summary, value: { error, ...extra } },
          ]),
        ),
      }),
    ]),
  );
}

/** A refused request, as the error handler words zod's first issue: where, and what. */
export const invalid = (summary: string, error: string) => ({ invalid: { summary, error } });
export const badPhone = (where: 'params' | 'querystring') =>
  invalid('Not a Kenyan mobile number', `${where}/phone phone must be a Kenyan mobile number`);
/** An answer with no body (@fastify/swagger gives a `null` schema no content). */
export const NO_CONTENT = { 204: z.null().meta({ description: 'Done (no body).' }) };

/** An answer's schema for the description: any object, with its examples. */
export const shown = (
  description: string,
  examples: Record<string, { summary: string; value: unknown }>,
) => z.looseObject({}).meta({ description, 'x-examples': examples });
