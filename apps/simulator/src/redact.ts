/**
 * Secrets masked wherever the simulator shows or logs what it received: the request log (control
 * API, events and page), the prompt list and pino's request lines. Only what is shown is masked:
 * callbacks still go to the full URL.
 *
 * What counts as a secret:
 * - in a URL or request path: every run of 16 or more of [A-Za-z0-9_-] in a path segment or a query
 *   value (the API's /api/mpesa/callback/<secret>, and the tokens other Daraja clients put in paths
 *   or query strings) that is not written as words (`isWords`: Daraja's own
 *   /mpesa/transactionstatus/v1/query, a receiver's /payment-confirmation-callback), any query
 *   value whose name says it is a secret, and a password in the userinfo. The host stays readable:
 *   it says where a callback went;
 * - in a body: any field whose name says it is a secret, above all STK's `Password`, which is
 *   base64(shortcode + passkey + timestamp) and so gives the passkey away, and OAuth's
 *   `access_token`; URLs in any field, as above;
 * - the Authorization header: Basic credentials and bearer tokens.
 */

const TOKEN_LENGTH = 16;
const TOKEN_RUN = /[A-Za-z0-9_-]{16,}/g;
const SECRET_NAME = /pass|secret|token|credential|signature|^sig$|auth|api_?key/i;
const ELLIPSIS = '…';
/**
 * Query parameters Daraja itself defines, shown as they are: `grant_type=client_credentials` is
 * token-shaped but no secret, and is what to check when OAuth answers "Invalid grant type".
 */
const DARAJA_PARAMETERS = new Set(['grant_type']);

/**
 * The masking rule: the first 4 characters and an ellipsis ("c9SQ…"), enough to tell two secrets
 * apart and not enough to use one. A value shorter than a token keeps nothing. A masked value is
 * left as it is, so masking twice changes nothing.
 */
export function mask(secret: string): string {
  if (secret.endsWith(ELLIPSIS)) return secret;
  return secret.length >= TOKEN_LENGTH ? `${secret.slice(0, 4)}${ELLIPSIS}` : ELLIPSIS;
}

/**
 * Whether a run is written as words, and so is a path's name, not a token: no digit, and each part
 * between `-` and `_` in one case (`transactionstatus`, `RESULT`) or camel case whose every capital
 * starts a word of at least 3 letters (`paymentConfirmation`, `AccountBalanceResult`). A random
 * base64url token rarely passes (it has a digit, or a `-` or `_` between two cases, or two capitals
 * close together, almost always): about three times in ten thousand for 16 characters, once in
 * twenty thousand for 20 (the API's callback secrets).
 */
const WORD = /^(?:[a-z]+|[A-Z]+|(?:[a-z]+|[A-Z][a-z]{2,})(?:[A-Z][a-z]{2,})*)$/;
export const isWords = (run: string) => run.split(/[-_]/).every((part) => WORD.test(part));

const maskTokens = (text: string) =>
  text.replace(TOKEN_RUN, (run) => (isWords(run) ? run : mask(run)));

const ORIGIN =
  /^(?<scheme>[A-Za-z][A-Za-z0-9+.-]*:\/\/)(?:(?<userinfo>[^@/?#]*)@)?(?<host>[^/?#]*)/;
const QUERY_PART = /([?&#;])([^=&#;]*)(?:=([^&#;]*))?/g;

/** A URL or a request path ("/a/b?c=d") with its secrets masked; scheme and host unchanged. */
export function redactUrl(url: string): string {
  const origin = ORIGIN.exec(url);
  let head = '';
  let rest = url;
  if (origin?.groups) {
    const { scheme = '', userinfo, host = '' } = origin.groups;
    head = `${scheme}${userinfo === undefined ? '' : `${redactUserinfo(userinfo)}@`}${host}`;
    rest = url.slice(origin[0].length);
  }
  const queryAt = rest.search(/[?#]/);
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rest.slice(queryAt);
  return `${head}${maskTokens(path)}${query.replace(
    QUERY_PART,
    (_part, separator: string, name: string, value: string | undefined) =>
      value === undefined
        ? `${separator}${maskTokens(name)}`
        : `${separator}${name}=${redactParameter(name, value)}`,
  )}`;
}

function redactParameter(name: string, value: string): string {
  if (DARAJA_PARAMETERS.has(name)) return value;
  return SECRET_NAME.test(name) ? mask(value) : maskTokens(value);
}

function redactUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  return colon === -1
    ? maskTokens(userinfo)
    : `${maskTokens(userinfo.slice(0, colon))}:${mask(userinfo.slice(colon + 1))}`;
}

/** "Bearer c9SQ…", "Basic a2V5…": the scheme, and the credentials masked. */
export function redactAuthorization(header: string | null | undefined): string | null {
  if (!header?.trim()) return null;
  const [scheme = '', credentials] = header.trim().split(/\s+/, 2);
  return credentials === undefined ? mask(scheme) : `${scheme} ${mask(credentials)}`;
}

const URL_IN_TEXT = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>\\]+/g;
const NAMED_VALUE = /([A-Za-z][\w-]*)(["']?\s*[:=]\s*["']?)([^"'\s&,;}]+)/g;
const STARTS_AS_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * A body as the log keeps it: JSON (already parsed) field by field, anything else as text.
 */
export function redactBody(body: unknown): unknown {
  return typeof body === 'string' ? redactText(body) : redactField('', body);
}

/**
 * Text that is not JSON (a malformed request, a callback receiver's answer): its URLs, and the
 * values written after a secret's name (`"Password":"…`, `token=…`), masked.
 */
export function redactText(text: string): string {
  return text
    .replace(URL_IN_TEXT, redactUrl)
    .replace(NAMED_VALUE, (whole, name: string, between: string, value: string) =>
      SECRET_NAME.test(name) ? `${name}${between}${mask(value)}` : whole,
    );
}

function redactField(name: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => redactField(name, item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactField(key, item)]),
    );
  }
  if (SECRET_NAME.test(name) && (typeof value === 'string' || typeof value === 'number')) {
    return mask(String(value));
  }
  if (typeof value === 'string' && STARTS_AS_URL.test(value)) return redactUrl(value);
  return value;
}
