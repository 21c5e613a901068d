/** One route's page body: its parameters, body, curl example and answers. */
import { STATUS_CODES } from 'node:http';
import { escapeHtml, inline, isRecord, json, prose, record, type Json } from './html.ts';
import { fieldItem, rules, shape } from './schema-fields.ts';
import { examplesOf, type Example } from './examples.ts';
import { curlCommand } from './curl.ts';

function exampleBlocks(examples: Example[], contentType: string): string {
  return examples
    .map(
      ({ name, value }) =>
        `<figure class="example"><figcaption>${inline(escapeHtml(name))}</figcaption>` +
        `<pre><code data-content-type="${escapeHtml(contentType)}">${escapeHtml(json(value))}</code></pre></figure>`,
    )
    .join('');
}

/**
 * A body: its content type, its shape and its examples. An answer's shape is folded away
 * (`<details>`): its examples show it, and the same error shape would otherwise fill the page.
 */
function content(value: unknown, fold: boolean): string {
  return Object.entries(record(value))
    .map(([contentType, media]) => {
      const mediaObject = record(media);
      const fields = shape(record(mediaObject.schema));
      return (
        `<p class="content-type">As <code>${escapeHtml(contentType)}</code>.</p>` +
        (fold ? `<details><summary>Fields</summary>${fields}</details>` : fields) +
        exampleBlocks(examplesOf(mediaObject), contentType)
      );
    })
    .join('');
}

export interface Operation {
  method: string;
  path: string;
  anchor: string;
  operation: Json;
}

function parameters(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '';
  const items = value.map((entry) => {
    const parameter = record(entry);
    const schema = record(parameter.schema);
    const notes = [
      `in ${String(parameter.in)}`,
      parameter.required === true ? 'required' : 'optional',
      ...rules(schema),
    ];
    const example = 'example' in parameter ? parameter.example : undefined;
    return fieldItem(String(parameter.name), schema, notes, parameter.description, example);
  });
  return `<h3>Parameters</h3><ul class="fields">${items.join('')}</ul>`;
}

function requestBody(value: unknown): string {
  if (!isRecord(value)) return '';
  return `<h3>Request body</h3>${prose(value.description)}${content(value.content, false)}`;
}

function responseHeaders(value: unknown): string {
  const headers = Object.entries(record(value));
  if (headers.length === 0) return '';
  const items = headers.map(([name, header]) =>
    fieldItem(name, record(record(header).schema), [], record(header).description),
  );
  return `<p>Headers:</p><ul class="fields">${items.join('')}</ul>`;
}

function responses(value: unknown, anchor: string): string {
  const entries = Object.entries(record(value));
  if (entries.length === 0) return '';
  const blocks = entries.map(([status, response]) => {
    const answer = record(response);
    const reason = STATUS_CODES[Number(status)] ?? '';
    const statusClass = `status-${status.charAt(0)}xx`;
    return (
      '<div class="response">' +
      `<h4 id="${anchor}-${status}"><span class="status ${statusClass}">${escapeHtml(status)}</span> ${escapeHtml(reason)}</h4>` +
      prose(answer.description) +
      responseHeaders(answer.headers) +
      content(answer.content, true) +
      '</div>'
    );
  });
  return `<h3>Responses</h3>${blocks.join('')}`;
}

export function methodBadge(method: string): string {
  return `<span class="method method-${method}">${method.toUpperCase()}</span>`;
}

/** The route as a curl command, and what the command cannot say. */
function curlBlock(document: Json, { method, path, anchor, operation }: Operation, origin: string) {
  const { command, notes } = curlCommand(document, method, path, operation, origin);
  const route = `${method.toUpperCase()} ${path}`;
  return (
    `<h3 id="${anchor}-curl">Example with curl</h3>` +
    `<pre><code class="curl" data-route="${escapeHtml(route)}">${escapeHtml(command)}</code></pre>` +
    notes.map((note) => `<p class="curl-note">${inline(escapeHtml(note))}</p>`).join('')
  );
}

export function operationSection(document: Json, entry: Operation, origin: string): string {
  const { method, path, anchor, operation } = entry;
  return (
    `<section class="operation" id="${anchor}" aria-labelledby="${anchor}-title">` +
    `<h2 id="${anchor}-title">${methodBadge(method)} <code class="path">${escapeHtml(path)}</code></h2>` +
    prose(operation.summary, 'summary') +
    prose(operation.description) +
    parameters(operation.parameters) +
    requestBody(operation.requestBody) +
    curlBlock(document, entry, origin) +
    responses(operation.responses, anchor) +
    '</section>'
  );
}
