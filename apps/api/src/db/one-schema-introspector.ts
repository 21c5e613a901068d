/**
 * Kysely's PostgreSQL introspector, confined to the app's own schema. Kysely's migrator asks it
 * whether its tables exist, at start-up and on every readiness probe. Kysely's own looks at every
 * schema in the database and checks the user's privilege on each by name, so another schema
 * dropped at that moment (another deployment's, another test's) fails the look with "schema … does
 * not exist" though ours is there. This one reads the catalog for the app's schema only.
 */
import {
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/** Kysely's migrator's own tables, left out unless asked for (as Kysely does). */
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface ColumnRow {
  column: string;
  not_null: boolean;
  has_default: boolean;
  table: string;
  table_type: string;
  type: string;
  type_schema: string;
  column_description: string | null;
  auto_incrementing: string | null;
}

export class OneSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schema: string;
  readonly #schemas: PostgresIntrospector;

  constructor(db: Kysely<unknown>, schema: string) {
    this.#db = db;
    this.#schema = schema;
    // Listing schemas reads one catalog table, with no lookup by name that a drop could fail.
    this.#schemas = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  /**
   * The schema's tables and views with their columns, as Kysely's gives them. The functions in the
   * select list run only for the rows the schema's name lets through.
   */
  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select a.attname as "column", a.attnotnull as not_null, a.atthasdef as has_default,
        c.relname as "table", c.relkind as table_type, typ.typname as "type",
        dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as column_description,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname)
          as auto_incrementing
      from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on a.attrelid = c.oid
        join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        join pg_catalog.pg_type typ on a.atttypid = typ.oid
        join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = ${this.#schema} and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
      order by c.relname, a.attnum
    `.execute(this.#db);
    const tables = new Map<
      string,
      TableMetadata & { columns: TableMetadata['columns'][number][] }
    >();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.includes(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = {
          name: row.table,
          schema: this.#schema,
          isView: row.table_type === 'v',
          columns: [],
        };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing !== null,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL, with the introspector above for `schema`. */
export class OneSchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], schema: string) {
    super(config);
    this.#schema = schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OneSchemaIntrospector(db, this.#schema);
  }
}
