/** The examples a request body or an answer gives, wherever OpenAPI lets it give them. */
import { record, text, type Json } from './html.ts';

export interface Example {
  name: string;
  value: unknown;
}

/** A media type's examples: its named `examples`, its `example`, or its schema's `examples`. */
export function examplesOf(media: Json): Example[] {
  const named = record(media.examples);
  const found: Example[] = Object.entries(named).map(([key, entry]) => ({
    name: text(record(entry).summary) ?? key,
    value: record(entry).value,
  }));
  if ('example' in media) found.push({ name: 'Example', value: media.example });
  const inSchema = record(media.schema).examples;
  if (Array.isArray(inSchema)) {
    inSchema.forEach((value, index) =>
      found.push({ name: inSchema.length > 1 ? `Example ${index + 1}` : 'Example', value }),
    );
  }
  return found;
}

/** The first of them: the one a curl example sends. */
export function firstExample(media: Json): Example | undefined {
  return examplesOf(media)[0];
}
