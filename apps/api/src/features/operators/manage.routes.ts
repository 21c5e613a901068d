/**
 * The owner's management of operators: list, add (with their first one-time link), change a role,
 * remove, and a new one-time link (docs/decisions/003-operator-sessions.md). HTTP only: the rules
 * are in operators.service.ts and password-links.service.ts. Owners only, whatever HISTORY_ACCESS
 * says; each change is refused cross-site and without the CSRF token, as signing out is.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addOperatorBodySchema, changeRoleBodySchema } from '@mpesa/shared/contract-admin';
import { clientAddress } from '../../lib/client-address.ts';
import { guardedSchema } from './access-doc.ts';
import { MANAGE_ANSWERS, operatorRefusal } from './manage.openapi.ts';
import { refuseCrossSite } from './cross-site.ts';
import { operatorOf, requireOperator, type AccessRule, type AuthDeps } from './require-operator.ts';
import { nameKey } from './operator-name.ts';
import {
  addOperator,
  changeRole,
  listOperators,
  removeOperator,
  type Actor,
} from './operators.service.ts';
import { issueLink } from './password-links.service.ts';
import type { OperatorRole } from './roles.ts';

export interface ManageRoutesOptions {
  deps: AuthDeps;
  corsOrigins: '*' | readonly string[];
}

const tags = ['Operators'];
/** Owners only, whatever HISTORY_ACCESS says; never a key. */
const OWNER: AccessRule = { role: 'owner' };
/** A route's schema, with who may call it. */
const owners = <S extends object>(schema: S) => guardedSchema(schema, OWNER);
const params = z.object({ name: z.string().max(1000).describe('The operator’s name (any case)') });

/** The owner asking, as the audit trail names them. */
function actorOf(request: FastifyRequest): Actor {
  return {
    actorKind: 'operator',
    actor: operatorOf(request).name,
    address: clientAddress(request),
  };
}

/** Runs the service, answering its refusals in our shape. */
async function refused<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw operatorRefusal(error);
  }
}

/** An operator as the list shows them, `you` for the owner asking. */
function entry(
  request: FastifyRequest,
  row: { name: string; role: OperatorRole; created_at: string; passwordSet: boolean },
) {
  return {
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    passwordSet: row.passwordSet,
    you: nameKey(row.name) === nameKey(operatorOf(request).name),
  };
}

/** The operator named `name` as the list shows them, just after a change. */
async function entryNamed(db: AuthDeps['db'], request: FastifyRequest, name: string) {
  const rows = await listOperators(db);
  const row = rows.find((each) => nameKey(each.name) === nameKey(name));
  if (!row) throw new Error(`operator ${name} vanished`);
  return entry(request, row);
}

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

export const manageRoutes: FastifyPluginAsyncZod<ManageRoutesOptions> = async (app, options) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  listAndAddRoutes(app, options);
  changeRoutes(app, options);
};

/** The gates of a change: an owner, not from another site, with the CSRF token. */
function changeGates(app: RoutesApp, { deps, corsOrigins }: ManageRoutesOptions) {
  return {
    onRequest: [refuseCrossSite(corsOrigins), requireOperator(deps, OWNER.role)],
    preHandler: app.csrfProtection,
  };
}

function listAndAddRoutes(app: RoutesApp, options: ManageRoutesOptions) {
  const { deps } = options;
  const owner = requireOperator(deps, OWNER.role);
  const change = changeGates(app, options);

  app.get(
    '/operators',
    {
      onRequest: owner,
      schema: owners({ summary: 'The operators', tags, response: MANAGE_ANSWERS.list }),
    },
    async (request) => {
      const rows = await listOperators(deps.db);
      return {
        success: true as const,
        data: { operators: rows.map((row) => entry(request, row)) },
      };
    },
  );

  app.post(
    '/operators',
    {
      ...change,
      schema: owners({
        summary: 'Add an operator',
        description:
          'They have no password until they use the one-time link the answer carries (24 hours). ' +
          'A name that mixes alphabets, or that looks like an existing operator’s, is refused.',
        tags,
        body: addOperatorBodySchema,
        response: MANAGE_ANSWERS.add,
      }),
    },
    async (request, reply) => {
      const now = deps.now();
      const by = actorOf(request);
      const added = await refused(
        addOperator(deps.db, { ...request.body, password: null, now, by }),
      );
      const link = await refused(issueLink(deps.db, added.name, { now, by }));
      reply.code(201);
      return {
        success: true as const,
        data: { operator: await entryNamed(deps.db, request, added.name), link },
      };
    },
  );
}

/** Changing an operator: their role, removing them, a new one-time link. */
function changeRoutes(app: RoutesApp, options: ManageRoutesOptions) {
  const { deps } = options;
  const change = changeGates(app, options);

  app.patch(
    '/operators/:name',
    {
      ...change,
      schema: owners({
        summary: 'Change an operator’s role',
        description: 'The last owner cannot be made anything else (409 LAST_OWNER).',
        tags,
        params,
        body: changeRoleBodySchema,
        response: MANAGE_ANSWERS.changeRole,
      }),
    },
    async (request) => {
      const { name } = await refused(
        changeRole(deps.db, request.params.name, request.body.role, deps.now(), actorOf(request)),
      );
      return {
        success: true as const,
        data: { operator: await entryNamed(deps.db, request, name) },
      };
    },
  );

  app.delete(
    '/operators/:name',
    {
      ...change,
      schema: owners({
        summary: 'Remove an operator',
        description:
          'Ends every session of theirs. The last owner cannot be removed (409 LAST_OWNER).',
        tags,
        params,
        response: MANAGE_ANSWERS.remove,
      }),
    },
    async (request) => {
      await refused(
        removeOperator(deps.db, request.params.name, { now: deps.now(), by: actorOf(request) }),
      );
      return { success: true as const, data: { removed: true as const } };
    },
  );

  app.post(
    '/operators/:name/password-link',
    {
      ...change,
      schema: owners({
        summary: 'A new one-time password link',
        description:
          'Replaces any earlier link. The operator’s password keeps working until the link is used.',
        tags,
        params,
        response: MANAGE_ANSWERS.link,
      }),
    },
    async (request) => {
      const link = await refused(
        issueLink(deps.db, request.params.name, { now: deps.now(), by: actorOf(request) }),
      );
      return { success: true as const, data: { link } };
    },
  );
}
