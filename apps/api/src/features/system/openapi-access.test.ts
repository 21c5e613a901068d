/**
 * The API's description says who may call each guarded route (HISTORY_ACCESS=operators): the
 * session with the least role, the key with its scope, or no one in particular (the payer's form).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

type Operation = { security?: unknown; description?: string };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

async function describedBy(app: FastifyInstance): Promise<Document> {
  return (await app.inject('/api/openapi.json')).json() as Document;
}

describe('who may call what, in /api/openapi.json', () => {
  let database: TestDatabase;
  let document: Document;
  let open: Document;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    for (const access of ['operators', 'open']) {
      const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: access } });
      apps.push(app);
    }
    document = await describedBy(apps[0]!);
    open = await describedBy(apps[1]!);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.destroy();
  });

  const operation = (path: string, method: string) => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not described`);
    return found;
  };

  it('describes the session cookie and the bearer key', () => {
    expect(document.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie', name: 'mpesa_session' },
      apiKey: { type: 'http', scheme: 'bearer' },
    });
  });

  it('says that a webhooks:manage key hears payers’ full phone numbers, as payments:read', () => {
    const warning =
      /`webhooks:manage` key reads payments too.*payer’s full phone number.*`payments:read`/s;
    expect(operation('/api/keys', 'post').description).toMatch(warning);
    expect(operation('/api/keys', 'get').description).toMatch(warning);
    expect(String(document.components.securitySchemes.apiKey?.description)).toMatch(warning);
    const tags = (document as unknown as { tags: { name: string; description: string }[] }).tags;
    expect(tags.find((tag) => tag.name === 'API keys')?.description).toMatch(warning);
    // And that a key ends with its maker.
    expect(operation('/api/keys', 'post').description).toContain('A key ends with its maker');
  });

  it('gives each guarded route its role and its scope, in the requirement and in words', () => {
    const expected: Array<[string, string, unknown[], string]> = [
      [
        '/api/mpesa/transactions',
        'get',
        [{ session: ['viewer'] }, { apiKey: ['payments:read'] }],
        'any operator signed in, or an API key with the scope `payments:read`',
      ],
      [
        '/api/mpesa/transactions/{id}/events',
        'get',
        [{ session: ['viewer'] }, { apiKey: ['payments:read'] }],
        'any operator signed in',
      ],
      [
        '/api/mpesa/transactions/export',
        'get',
        [{ session: ['owner'] }, { apiKey: ['payments:read'] }],
        'an owner signed in, or an API key with the scope `payments:read`',
      ],
      [
        '/api/mpesa/stkpush',
        'post',
        [{}, { session: ['cashier'] }, { apiKey: ['payments:request'] }],
        'open to a payer with no credential',
      ],
      ['/api/keys', 'get', [{ session: ['owner'] }], 'an owner signed in.'],
      ['/api/keys', 'post', [{ session: ['owner'] }], 'an owner signed in.'],
      ['/api/keys/{id}', 'delete', [{ session: ['owner'] }], 'an owner signed in.'],
    ];
    for (const [path, method, security, words] of expected) {
      const described = operation(path, method);
      expect(described.security, `${method} ${path}`).toEqual(security);
      expect(described.description, `${method} ${path}`).toContain(words);
    }
  });

  it('gives the owner’s routes (operators only) and the operators’ own routes their role', () => {
    const owner = [{ session: ['owner'] }];
    const anyOperator = [{ session: ['viewer'] }];
    const expected: Array<[string, string, unknown[]]> = [
      ['/api/operators', 'get', owner],
      ['/api/operators', 'post', owner],
      ['/api/operators/{name}', 'patch', owner],
      ['/api/operators/{name}', 'delete', owner],
      ['/api/operators/{name}/password-link', 'post', owner],
      ['/api/audit', 'get', owner],
      ['/api/mpesa/transactions/{id}/review', 'post', owner],
      ['/api/auth/sign-out', 'post', anyOperator],
      ['/api/auth/me', 'get', anyOperator],
    ];
    for (const [path, method, security] of expected) {
      const described = document.paths[path]?.[method];
      expect(described?.security, `${method} ${path}`).toEqual(security);
      // The owner's routes exist only with operators; signing out and `me` whatever the setting.
      const words =
        security === owner
          ? 'With HISTORY_ACCESS=operators: an owner signed in.'
          : 'Whatever HISTORY_ACCESS says: any operator signed in.';
      expect(described?.description, `${method} ${path}`).toContain(words);
      const inOpen = open.paths[path]?.[method];
      if (security === owner) expect(inOpen, `${method} ${path} with open`).toBeUndefined();
      else expect(inOpen?.security, `${method} ${path} with open`).toEqual(security);
    }
    // Open to anyone: signing in, the CSRF token.
    // A refund takes a signed-in owner whatever HISTORY_ACCESS says (features/refunds/refunds.routes.ts).
    for (const described of [document, open]) {
      const refund = described.paths['/api/mpesa/transactions/{id}/refund']?.post;
      expect(refund?.security).toEqual(owner);
      expect(refund?.description).toContain('Whatever HISTORY_ACCESS says: an owner signed in.');
    }
    expect(document.paths['/api/auth/sign-in']?.post?.security).toBeUndefined();
    expect(document.paths['/api/auth/csrf']?.get?.security).toBeUndefined();
  });

  it('lists the refusals of a key that is not valid and of a key of another scope', () => {
    const responses = (operation('/api/mpesa/transactions', 'get') as { responses: object })
      .responses;
    const text = JSON.stringify(responses);
    expect(text).toContain('SCOPE_NOT_ALLOWED');
    expect(text).toContain('This API key is not valid.');
  });

  it('says nothing of credentials where HISTORY_ACCESS=open leaves everything open', () => {
    expect(open.paths['/api/mpesa/transactions']?.get?.security).toBeUndefined();
    expect(open.paths['/api/mpesa/stkpush']?.post?.security).toBeUndefined();
    expect(open.paths['/api/keys']).toBeUndefined();
  });
});
