// PostgreSQL's dialect whose introspection reads the connection's own schema only.
//
// Kysely's migrator asks the introspector for every table it may read to learn whether its own two
// tables exist. The stock PostgreSQL introspector answers by reading each schema's tables and
// resolving each by name (pg_get_serial_sequence): a schema another site, or another test, drops
// during that read fails it with «schema "…" does not exist», and the site does not start
// (decision 048). The site's tables all live in its own schema (the first of its search_path), so
// that is the only one read here.
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely'

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db)
  }
}

interface ColumnRow {
  schema: string
  table: string
  tableType: string
  column: string
  type: string
  typeSchema: string
  isNullable: string
  columnDefault: string | null
  isIdentity: string
}

const KYSELY_TABLES: ReadonlySet<string> = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE])

class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db)
    return rows
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select t.table_schema as schema, t.table_name as table, t.table_type as "tableType",
             c.column_name as column, c.udt_name as type, c.udt_schema as "typeSchema",
             c.is_nullable as "isNullable", c.column_default as "columnDefault", c.is_identity as "isIdentity"
        from information_schema.tables t
        join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
       where t.table_schema = current_schema()
       order by t.table_name, c.ordinal_position`.execute(this.db)
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: ColumnMetadata[] }>()
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue
      let table = tables.get(row.table)
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.tableType === 'VIEW', columns: [] }
        tables.set(row.table, table)
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: row.isNullable === 'YES',
        hasDefaultValue: row.columnDefault !== null || row.isIdentity === 'YES',
        isAutoIncrementing: row.isIdentity === 'YES' || (row.columnDefault?.startsWith('nextval(') ?? false),
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}
