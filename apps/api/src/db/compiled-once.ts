/**
 * A statement Kysely builds and compiles once, then runs with each call's own values: for the
 * writes on a payment's hot path, whose shape never changes. Building and compiling a query cost
 * more than running it on SQLite (docs/performance.md, "The payment path").
 *
 * The SQL is still Kysely's, from the same builder code as any other query: the builder is run
 * with a placeholder for each value, and the compiled statement remembers which of its parameters
 * each placeholder became. Each call puts its own values there. A value left undefined (a column
 * an insert or an update leaves out, a part of a statement that is not there) makes another
 * shape, compiled once too. Statements are kept per database (its dialect's SQL); the app gives
 * Kysely no plugins, which would change the SQL.
 */
import { CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** The values a statement is built from, by name; a plain object among them is named within. */
type Values = Record<string, unknown>;

/** Stands for one value while the statement is compiled: never sent to a database. */
class Placeholder {
  readonly index: number;
  readonly name: string;
  constructor(index: number, name: string) {
    this.index = index;
    this.name = name;
  }
}

/**
 * What the compiled statement takes at each parameter: the value at an index of the values in
 * order (`leavesOf`), or a constant of its own.
 */
type Parameter = { index: number } | { constant: unknown };

interface Compiled {
  sql: string;
  parameters: readonly Parameter[];
}

function isPlainObject(value: unknown): value is Values {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Puts every defined value in `leaves`, in order, and says the values' shape: the name of each,
 * within its object.
 */
function leavesOf(values: Values, leaves: unknown[]): string {
  let shape = '';
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      shape += `${name}{${leavesOf(value, leaves)}}`;
    } else {
      leaves.push(value);
      shape += `${name},`;
    }
  }
  return shape;
}

/** The values with a placeholder in place of each one that is defined, in `leavesOf`'s order. */
function placeholdersFor(values: Values, placed: Placeholder[], prefix = ''): Values {
  const placeholders: Values = {};
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      placeholders[name] = placeholdersFor(value, placed, `${prefix}${name}.`);
    } else {
      const placeholder = new Placeholder(placed.length, prefix + name);
      placed.push(placeholder);
      placeholders[name] = placeholder;
    }
  }
  return placeholders;
}

/**
 * `build` as a statement compiled once per database and shape. `build` is given placeholders in
 * place of the values: it may see which are there, and must hand them to Kysely without reading
 * them (a value it turned into SQL text is refused when compiling).
 */
export function compiledOnce<V extends object, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R> | RawBuilder<R>,
): (db: Kysely<Database>, values: V) => CompiledQuery<R> {
  // By the database's adapter, which its transactions share.
  const perDatabase = new WeakMap<object, Map<string, Compiled>>();
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let shapes = perDatabase.get(adapter);
    if (!shapes) {
      shapes = new Map();
      perDatabase.set(adapter, shapes);
    }
    const leaves: unknown[] = [];
    const shape = leavesOf(values as Values, leaves);
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = compile(values as Values, (placeholders) => {
        const query = build(db, placeholders as V);
        return 'isRawBuilder' in query ? query.compile(db) : query.compile();
      });
      shapes.set(shape, compiled);
    }
    const parameters = compiled.parameters.map((parameter) =>
      'index' in parameter ? leaves[parameter.index] : parameter.constant,
    );
    return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
  };
}

function compile(values: Values, build: (placeholders: Values) => CompiledQuery): Compiled {
  const placed: Placeholder[] = [];
  const { sql, parameters } = build(placeholdersFor(values, placed));
  const used = new Set<Placeholder>();
  const mapped = parameters.map((parameter): Parameter => {
    if (!(parameter instanceof Placeholder)) return { constant: parameter };
    used.add(parameter);
    return { index: parameter.index };
  });
  const lost = placed.filter((placeholder) => !used.has(placeholder));
  if (lost.length > 0) {
    const names = lost.map((placeholder) => placeholder.name).join(', ');
    throw new Error(`compiledOnce: ${names} did not become parameters of: ${sql}`);
  }
  return { sql, parameters: mapped };
}
