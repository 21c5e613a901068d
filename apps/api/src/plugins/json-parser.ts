/**
 * Fastify's JSON parser refuses "__proto__" and "constructor.prototype" keys (prototype poisoning)
 * but calls that invalid JSON too: a refused body that is valid JSON was refused for its keys, and
 * is told so.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbiddenKey } from '../errors.ts';

export const jsonParser = fp(
  async (app) => {
    const secureParse = app.getDefaultJsonParser('error', 'error') as (
      request: FastifyRequest,
      body: string,
      done: (error: FastifyError | null, value?: unknown) => void,
    ) => void;
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString();
      secureParse(request, text, (error, value) => {
        if (error?.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return done(error, value);
        try {
          JSON.parse(text);
        } catch {
          return done(error);
        }
        done(forbiddenKey());
      });
    });
  },
  { name: 'json-parser' },
);
