/**
 * A route as a curl command, from what its description says: the method, the URL with its path
 * parameters (and required query parameters) filled from their examples, its header parameters
 * (`Idempotency-Key`), the credential its `security` asks for, and its request body's first
 * example, the one the apps' tests check against the route's schema.
 *
 * Security schemes may say what to show for their credential with `x-placeholder` (`mpk_…`), and
 * a cookie scheme the header a request that changes something sends with it (`x-csrf-header`).
 */
import { isRecord, record, text, type Json } from './html.ts';
import { firstExample } from './examples.ts';

export interface Curl {
  /** The command, to be shown as it is (a shell reads it as written). */
  command: string;
  /** The body `-d` sends, as the example gives it; undefined when the route takes none. */
  body?: unknown;
  /** What the command cannot say: the credential a session route takes, one of several. */
  notes: string[];
}

/** A word for the shell, in single quotes: a quote inside is written `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `idempotency-key` → `Idempotency-Key`: header names as people write them. */
function headerName(name: string): string {
  return name.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
  );
}

/** A parameter's example: its own, its schema's `examples[0]` or `example`. */
function parameterExample(parameter: Json): unknown {
  if ('example' in parameter) return parameter.example;
  const examples = Object.values(record(parameter.examples));
  if (examples.length > 0) return record(examples[0]).value;
  const schema = record(parameter.schema);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  return undefined;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The credential a route's `security` asks for, as curl options and notes. */
function credential(operation: Json, document: Json, method: string) {
  const options: string[] = [];
  const notes: string[] = [];
  const requirements = (
    Array.isArray(operation.security) ? operation.security : (document.security ?? [])
  ) as unknown[];
  if (!Array.isArray(requirements) || requirements.length === 0) return { options, notes };
  const schemes = record(record(document.components).securitySchemes);
  const named = requirements.map((requirement) =>
    Object.keys(record(requirement)).map((name) => ({ name, scheme: record(schemes[name]) })),
  );
  if (named.some((names) => names.length === 0)) {
    notes.push('Needs no credential; one listed below makes it act for the shop.');
  }
  const bearer = named.flat().find(({ scheme }) => isBearer(scheme));
  const cookie = named
    .flat()
    .find(({ scheme }) => scheme.type === 'apiKey' && scheme.in === 'cookie');
  const header = named
    .flat()
    .find(({ scheme }) => scheme.type === 'apiKey' && scheme.in === 'header');
  const optional = named.some((names) => names.length === 0);
  const changes = !['get', 'head', 'options'].includes(method);

  if (bearer) {
    const placeholder = text(bearer.scheme['x-placeholder']) ?? '…';
    if (!optional) options.push(`-H ${shellQuote(`Authorization: Bearer ${placeholder}`)}`);
    else notes.push(`With a key: \`-H 'Authorization: Bearer ${placeholder}'\`.`);
  } else if (header) {
    const placeholder = text(header.scheme['x-placeholder']) ?? '…';
    const line = `${String(header.scheme.name)}: ${placeholder}`;
    if (!optional) options.push(`-H ${shellQuote(line)}`);
    else notes.push(`With a key: \`-H '${line}'\`.`);
  }
  if (cookie) {
    const csrf = text(cookie.scheme['x-csrf-header']);
    const sent =
      `the \`${String(cookie.scheme.name)}\` cookie` + (csrf && changes ? ` and \`${csrf}\`` : '');
    if (bearer || header || optional) notes.push(`Or a signed-in session: ${sent}.`);
    else {
      notes.push(`Takes a signed-in session: ${sent} (a browser sends them; curl needs \`-b\`).`);
      options.push(`-b ${shellQuote(`${String(cookie.scheme.name)}=…`)}`);
      if (csrf && changes) options.push(`-H ${shellQuote(`${csrf}: …`)}`);
    }
  }
  return { options, notes };
}

function isBearer(scheme: Json): boolean {
  return scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer';
}

/** The route `method path` of `document` as a curl command against `origin` (`https://host`). */
export function curlCommand(
  document: Json,
  method: string,
  path: string,
  operation: Json,
  origin: string,
): Curl {
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : [])
    .filter(isRecord)
    .filter((parameter) => typeof parameter.name === 'string');
  const server = text(record(Array.isArray(document.servers) ? document.servers[0] : {}).url);
  const base =
    server && /^https?:\/\//.test(server)
      ? server.replace(/\/$/, '')
      : origin + (server?.replace(/\/$/, '') ?? '');

  let url = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = parameters.find((entry) => entry.in === 'path' && entry.name === name);
    const example = parameter ? parameterExample(parameter) : undefined;
    return example === undefined ? whole : encodeURIComponent(asText(example));
  });
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.required === true)
    .flatMap((parameter) => {
      const example = parameterExample(parameter);
      return example === undefined
        ? []
        : [`${encodeURIComponent(String(parameter.name))}=${encodeURIComponent(asText(example))}`];
    });
  if (query.length > 0) url += `?${query.join('&')}`;

  // A path parameter left as `{name}`, or an IPv6 host, would be read by curl as a pattern to
  // expand: -g turns that off.
  const glob = /[{}[\]]/.test(base + url) ? ' -g' : '';
  const verb = method === 'get' ? '' : ` -X ${method.toUpperCase()}`;
  const lines = [`curl${glob}${verb} ${shellQuote(base + url)}`];

  const { options, notes } = credential(operation, document, method);
  lines.push(...options);
  for (const parameter of parameters.filter((entry) => entry.in === 'header')) {
    const name = headerName(String(parameter.name));
    if (/^(authorization|content-type)$/i.test(name) && options.length > 0) continue;
    const example = parameterExample(parameter);
    lines.push(`-H ${shellQuote(`${name}: ${example === undefined ? '…' : asText(example)}`)}`);
  }

  let body: unknown;
  const [contentType, media] =
    Object.entries(record(record(operation.requestBody).content))[0] ?? [];
  if (contentType) {
    const example = firstExample(record(media));
    lines.push(`-H ${shellQuote(`Content-Type: ${contentType}`)}`);
    if (example === undefined) {
      notes.push('The body has no example here: see its fields above.');
    } else {
      body = example.value;
      const written =
        typeof body === 'string' && !/json/.test(contentType)
          ? body
          : JSON.stringify(body, null, 2);
      lines.push(`-d ${shellQuote(written)}`);
    }
  }
  return { command: lines.join(' \\\n  '), body, notes };
}
