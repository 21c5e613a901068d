/**
 * `GET /api/audit`: the audit trail for owners, newest first, paged by an opaque cursor over
 * (at, id) as the history is (db/list-cursor.ts).
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { auditListResponseSchema, auditQuerySchema } from '@mpesa/shared/contract-admin';
import type { Database } from '../../../db/schema.ts';
import { invalidCursor } from '../../../errors.ts';
import { guardedSchema } from '../access-doc.ts';
import { AUTH_REFUSED } from '../auth.openapi.ts';
import { REFUSED, answer, refusals } from '../../../openapi/responses.ts';
import { decodeCursor, pageOf } from '../../../db/list-cursor.ts';
import { auditEntries } from './audit-entries.ts';
import { listAuditEvents } from './audit.repository.ts';

export interface AuditRoutesOptions {
  db: Kysely<Database>;
  /** A signed-in owner (features/operators/require-operator.ts). */
  owner: onRequestAsyncHookHandler;
}

const SAMPLE_ENTRY = {
  id: '019abc0000000000a1b2c3d4',
  at: '2026-11-25T09:00:00.000Z',
  actorKind: 'operator',
  actor: 'Amina',
  action: 'operator_added',
  target: 'Otieno',
  subject: { kind: 'operator', id: 'Otieno', name: 'Otieno' },
  detail: 'role: cashier',
  facts: { kind: 'role', role: 'cashier' },
  address: '203.0.113.9',
} as const;

export const auditRoutes: FastifyPluginAsyncZod<AuditRoutesOptions> = async (
  app,
  { db, owner },
) => {
  app.get(
    '/audit',
    {
      onRequest: owner,
      schema: guardedSchema(
        {
          summary: 'The audit trail',
          description:
            'Who signed in (or failed to), exported, reviewed a payment, or changed an operator or a ' +
            'key, and when; newest first. `subject` says what `target` is (a payment, an operator, a ' +
            'key, a webhook endpoint) and names it; `facts` is `detail` read into parts, null when ' +
            'there is none or it does not read. `nextCursor` asks for the page after (null on the last).',
          tags: ['Operators'],
          querystring: auditQuerySchema,
          response: {
            200: answer(auditListResponseSchema, 'A page of the trail, newest first.', {
              page: {
                summary: 'One line',
                value: { success: true, data: { entries: [SAMPLE_ENTRY], nextCursor: null } },
              },
            }),
            ...refusals([
              AUTH_REFUSED.unauthenticated,
              AUTH_REFUSED.roleNotAllowed,
              REFUSED.validation,
              REFUSED.invalidCursor,
              REFUSED.databaseUnavailable,
            ]),
          },
        },
        { role: 'owner' },
      ),
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { cursor, limit } = request.query;
      const after = cursor === undefined ? null : decodeCursor(cursor);
      if (after === null && cursor !== undefined) throw invalidCursor();
      const rows = await listAuditEvents(db, { after, limit: limit + 1 });
      const { page, nextCursor } = pageOf(rows, limit, (row) => ({
        createdAt: row.at,
        id: row.id,
      }));
      return {
        success: true as const,
        data: { entries: await auditEntries(db, page), nextCursor },
      };
    },
  );
};
