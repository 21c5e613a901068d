/** A JSON Schema (as @fastify/swagger writes it from zod) as a list of fields in words. */
import { escapeHtml, inline, isRecord, json, record, text, type Json } from './html.ts';

/** Nested fields are listed down to this depth, as `data[].byStatus[].count`. */
const MAX_DEPTH = 5;

export function typeOf(schema: Json): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union)) {
    return [...new Set(union.map((member) => typeOf(record(member))))].join(' | ');
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const named = types.filter((type): type is string => typeof type === 'string');
  if (named.length === 0) return 'any';
  return named
    .map((type) => {
      if (type === 'array') return `array of ${typeOf(record(schema.items))}`;
      const format = text(schema.format);
      return format ? `${type} (${format})` : type;
    })
    .join(' | ');
}

/** The rules a value must follow, beyond its type, in words. */
export function rules(schema: Json): string[] {
  const said: string[] = [];
  const number = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
  if (number('minimum') !== undefined) said.push(`at least ${number('minimum')}`);
  if (number('maximum') !== undefined) said.push(`at most ${number('maximum')}`);
  if (number('minLength') !== undefined) said.push(`at least ${number('minLength')} characters`);
  if (number('maxLength') !== undefined) said.push(`at most ${number('maxLength')} characters`);
  if (text(schema.pattern)) said.push(`matches ${schema.pattern as string}`);
  if ('default' in schema) said.push(`default ${JSON.stringify(schema.default)}`);
  return said;
}

interface Field {
  name: string;
  schema: Json;
  required: boolean;
}

/** The object's fields, nested ones by their path (`data.today.count`, `data.daily[].day`). */
function fieldsOf(schema: Json, prefix = '', depth = 0): Field[] {
  if (depth >= MAX_DEPTH) return [];
  const properties = record(schema.properties);
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties).flatMap(([key, value]) => {
    const child = record(value);
    const name = `${prefix}${key}`;
    const own: Field = { name, schema: child, required: required.includes(key) };
    const nested = isObjectSchema(child)
      ? fieldsOf(child, `${name}.`, depth + 1)
      : child.type === 'array' && isObjectSchema(record(child.items))
        ? fieldsOf(record(child.items), `${name}[].`, depth + 1)
        : [];
    return [own, ...nested];
  });
}

function isObjectSchema(schema: Json): boolean {
  return isRecord(schema.properties);
}

/** One field, parameter or header: its name, type, notes (required, rules) and description. */
export function fieldItem(
  name: string,
  schema: Json,
  notes: string[],
  description: unknown,
  example?: unknown,
): string {
  const said = text(description);
  return (
    `<li><code class="field-name">${escapeHtml(name)}</code> ` +
    `<span class="field-type">${escapeHtml(typeOf(schema))}</span>` +
    (notes.length > 0
      ? ` <span class="field-notes">(${escapeHtml(notes.join(', '))})</span>`
      : '') +
    (said ? `<div class="field-description">${inline(escapeHtml(said))}</div>` : '') +
    (example === undefined
      ? ''
      : `<div class="field-description">For example <code>${escapeHtml(json(example))}</code></div>`) +
    '</li>'
  );
}

function fieldList(fields: Field[]): string {
  if (fields.length === 0) return '';
  const items = fields.map(({ name, schema, required }) =>
    fieldItem(
      name,
      schema,
      [required ? 'required' : 'optional', ...rules(schema)],
      schema.description,
    ),
  );
  return `<ul class="fields">${items.join('')}</ul>`;
}

/** A body's shape: its fields, or each shape it may take. */
export function shape(schema: Json): string {
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union) && union.every((member) => isObjectSchema(record(member)))) {
    const shapes = union.map(
      (member, index) =>
        `<li><span class="shape-name">Shape ${index + 1}</span>${fieldList(fieldsOf(record(member)))}</li>`,
    );
    return `<p>One of these shapes:</p><ol class="shapes">${shapes.join('')}</ol>`;
  }
  if (isObjectSchema(schema)) return fieldList(fieldsOf(schema));
  return `<p>${escapeHtml(typeOf(schema))}</p>`;
}
