/**
 * What the API description says about answers: each route's statuses with an example of each
 * answer, attached to the zod schemas that already serialize them (zod's `.meta()`, which
 * @fastify/swagger turns into the OpenAPI examples of each response). A schema with metadata is a
 * copy: it validates exactly as the shared contract's, which stays as it is.
 *
 * The error examples are made from the errors the code throws, by the same functions and
 * constants, so that their codes and messages are the API's own; openapi.test.ts provokes each of
 * them and checks that the API answers exactly what is documented.
 */
import { z } from 'zod';
import { messages } from '@mpesa/shared';
import { errorResponseSchema } from '@mpesa/shared/contract';
import {
  AppError,
  CLIENT_MISTAKES,
  databaseUnavailable,
  forbiddenKey,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  internalError,
  invalidCursor,
  invalidIdempotencyKey,
  notFound,
  rateLimited,
  shuttingDown,
  transactionNotFound,
  validationError,
} from '../errors.ts';

/** One answer a route can give, as the description shows it. */
export interface Example<T = unknown> {
  /** What happened, in a sentence (the example's title). */
  summary: string;
  value: T;
}

/** An error answer: its status, its body, and whether it says when to ask again (Retry-After). */
export interface DocumentedError {
  status: number;
  summary: string;
  body: z.output<typeof errorResponseSchema>;
  retryAfter: boolean;
}

/** An error the code throws, documented as answerError sends it. */
export function refusal(summary: string, error: AppError): DocumentedError {
  return {
    status: error.statusCode,
    summary,
    body: {
      success: false,
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(error.transactionId === undefined ? {} : { transactionId: error.transactionId }),
      ...(error.problems === undefined ? {} : { problems: [...error.problems] }),
    },
    retryAfter: error.retryAfterS !== undefined,
  };
}

/** A Fastify or Node error that is the client's doing, as answerError words it (CLIENT_MISTAKES). */
function mistake(summary: string, fastifyCode: string): DocumentedError {
  const known = CLIENT_MISTAKES[fastifyCode];
  if (!known) throw new Error(`errors.ts has no answer for ${fastifyCode}`);
  return refusal(summary, new AppError(known.statusCode, known.code, known.message));
}

/** Every error answer the routes document, by name. */
export const REFUSED = {
  validation: refusal(
    'A field is missing or not valid: the first problem, in words',
    validationError(messages.invalidPhone, 'phoneNumber'),
  ),
  invalidJson: mistake('The body is not valid JSON', 'FST_ERR_CTP_INVALID_JSON_BODY'),
  emptyBody: mistake('The body is empty', 'FST_ERR_CTP_EMPTY_JSON_BODY'),
  forbiddenKey: refusal('The body uses a key that could poison objects', forbiddenKey()),
  invalidIdempotencyKey: refusal(
    'The Idempotency-Key header is empty, too long or not visible ASCII',
    invalidIdempotencyKey(),
  ),
  invalidCursor: refusal('The cursor is not one this server gave', invalidCursor()),
  badUrl: mistake('The address has a broken %-escape', 'FST_ERR_BAD_URL'),
  transactionNotFound: refusal('No payment has this id', transactionNotFound()),
  callbackNotFound: refusal(
    'The secret in the path is wrong: answered as any unknown address',
    notFound(),
  ),
  idempotencyKeyInUse: refusal(
    'A request with this Idempotency-Key is still being answered',
    idempotencyKeyInUse(),
  ),
  bodyTooLarge: mistake('The body is larger than the route takes', 'FST_ERR_CTP_BODY_TOO_LARGE'),
  urlTooLong: mistake(
    'The path parameter is longer than any this route has',
    'FST_ERR_MAX_PARAM_LENGTH',
  ),
  unsupportedMediaType: mistake('The body is not sent as JSON', 'FST_ERR_CTP_INVALID_MEDIA_TYPE'),
  idempotencyKeyReused: refusal(
    'The Idempotency-Key was used before for a different body',
    idempotencyKeyReused(),
  ),
  rateLimited: refusal(
    'This address sent its allowance of payment requests for the window',
    rateLimited(42),
  ),
  internal: refusal('Something failed on our side (the details are in the log)', internalError()),
  shuttingDown: refusal(
    'The server is shutting down; a load balancer retries elsewhere',
    shuttingDown(),
  ),
  databaseUnavailable: refusal(
    'The database cannot be reached or cannot take the work now (an outage, not the request): ask again after Retry-After',
    databaseUnavailable(),
  ),
} satisfies Record<string, DocumentedError>;

/** What a route with a path parameter answers when the parameter cannot be read. */
export const PATH_REFUSALS = [REFUSED.badUrl, REFUSED.urlTooLong];

/** A success answer's schema with its description and examples (a copy of the schema). */
export function answer<T extends z.ZodType>(
  schema: T,
  description: string,
  examples: Record<string, Example<z.input<T>>>,
): T {
  return schema.meta({ description, 'x-examples': examples });
}

/** Response headers as @fastify/swagger reads them from a response schema. */
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    type: 'integer',
    description:
      'Seconds until the same request can succeed (sent with the refusals that know it).',
  },
};

/** The error answers every route can give: a failure of ours, and a server shutting down. */
const EVERY_ROUTE = [REFUSED.internal, REFUSED.shuttingDown];

/** Another shape a route answers with on an error status (not our error shape), and its examples. */
export interface Alongside<A extends z.ZodType = z.ZodType> {
  schema: A;
  examples: Record<string, Example<z.input<A>>>;
}

/**
 * A route's error answers by status: our error shape (errorResponseSchema, which every error
 * answer passes, since answerError makes them all), described by its codes, with an example of
 * each. 500 INTERNAL_ERROR and 503 SHUTTING_DOWN are added: every route can answer them.
 * `alongside` adds a route's own shape on a status (the readiness probe's 503, the callback's 400).
 *
 * Fastify serializes each declared status through its schema, so a status is declared only with a
 * schema that every answer of that status passes.
 */
type Refusals<S extends number, A extends z.ZodType> = Record<number, typeof errorResponseSchema> &
  Record<S, z.ZodUnion<[A, typeof errorResponseSchema]>>;

export function refusals<S extends number = never, A extends z.ZodType = never>(
  errors: readonly DocumentedError[],
  alongside: Record<S, Alongside<A>> = {} as Record<S, Alongside<A>>,
): Refusals<S, A> {
  const extra: Partial<Record<number, Alongside<A>>> = alongside;
  const byStatus = new Map<number, DocumentedError[]>(
    Object.keys(extra).map((status) => [Number(status), []]),
  );
  for (const error of [...errors, ...EVERY_ROUTE]) {
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  }
  const responses: Record<number, z.ZodType> = {};
  for (const [status, documented] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(documented.map((error) => `\`${error.body.code}\``))];
    const examples: Record<string, Example> = { ...extra[status]?.examples };
    for (const error of documented) {
      let name: string = error.body.code;
      for (let n = 2; name in examples; n++) name = `${error.body.code}_${n}`;
      examples[name] = { summary: error.summary, value: error.body };
    }
    const retryAfter = documented.some((error) => error.retryAfter);
    const other = extra[status];
    const schema = other ? z.union([other.schema, errorResponseSchema]) : errorResponseSchema;
    responses[status] = schema.meta({
      description: `${other ? 'An answer of its own, or refused' : 'Refused'}: ${codes.join(', ')}.`,
      'x-examples': examples,
      ...(retryAfter ? { headers: RETRY_AFTER_HEADER } : {}),
    });
  }
  return responses as Refusals<S, A>;
}
