/**
 * The one way the web app talks to the API: JSON in, JSON out, under `/api` on the same origin
 * unless VITE_API_BASE_URL says otherwise.
 */
const API_BASE = (import.meta.env.VITE_API_BASE_URL ?? '/api').replace(/\/+$/, '');

/** Where an API path is, for links the browser follows itself (a download). */
export function apiUrl(path: string): string {
  return `${API_BASE}${path}`;
}

/**
 * A failed call. When the server answered with a body, the error carries it and its `message`;
 * when the request never got an answer, `message` is empty and `status` is 0, and `timedOut` says
 * whether it was given up after waiting (rather than failing at once, as it does offline).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly body: unknown;
  readonly timedOut: boolean;
  /** The answer's Retry-After, in seconds: when asking again can succeed. */
  readonly retryAfterS: number | undefined;

  constructor(
    status: number,
    message: string,
    body: unknown,
    timedOut = false,
    retryAfterS?: number,
  ) {
    super(message);
    this.status = status;
    this.body = body;
    this.timedOut = timedOut;
    this.retryAfterS = retryAfterS;
  }
}

/** An answer from the server that asking again will not change (400, 404, 422…). */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/** How long a request waits for its whole answer before it is given up (see apiRequest). */
export const REQUEST_TIMEOUT_MS = 10_000;

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const { message } = body;
    if (typeof message === 'string') return message;
  }
  return '';
}

/**
 * One request. It fails within `timeoutMs` whatever the network does: a connection that takes the
 * request and never answers (a weak signal) would otherwise keep the screen waiting for minutes.
 */
export async function apiRequest<T>(
  path: string,
  init: {
    method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    body?: unknown;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ApiError(0, '', undefined, true));
      controller.abort();
    }, init.timeoutMs ?? REQUEST_TIMEOUT_MS);
  });
  try {
    let response: Response;
    try {
      response = await Promise.race([
        fetch(`${API_BASE}${path}`, {
          method: init.method ?? 'GET',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            ...init.headers,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: controller.signal,
        }),
        timedOut,
      ]);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // Aborted by the timeout (the fetch may be refused before the timeout's own error lands).
      throw new ApiError(0, '', undefined, controller.signal.aborted);
    }
    let body: unknown;
    try {
      body = await Promise.race([response.json(), timedOut]);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      body = undefined;
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
      throw new ApiError(
        response.status,
        messageOf(body),
        body,
        false,
        Number.isInteger(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
      );
    }
    return body as T;
  } finally {
    clearTimeout(timer);
  }
}

/** A random key for one submission; works on plain-HTTP origins where crypto.randomUUID does not exist. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
