// The connection module: opening either database, migrating it, and the transactions every store
// uses. Which dialect a connection speaks is dialect.ts's question.
import fs from 'node:fs'
import path from 'node:path'
import { withStatementCache } from './statement-cache'
import { checkpointOffThread, type Checkpoints } from './sqlite-checkpoints'
import { SQLite, type SQLiteDatabase } from './sqlite-driver'
import {
  Kysely,
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  SqliteDialect,
  sql,
  CompiledQuery,
  type Compilable,
  type DatabaseConnection,
  type KyselyPlugin,
  type MigrationProvider,
} from 'kysely'
import type pg from 'pg'
import type { DatabaseConfig } from '../config/config'
import type { Database } from './schema'
import { LOCK_WAIT_MS } from './write-transaction'
import { isSqlite } from './sql/dialect'
import { TRANSIENT_CODES, TRANSIENT_SQLSTATES } from './unavailable'
import { MIGRATIONS } from './migrations'
import { OwnSchemaPostgresDialect } from './own-schema-dialect'

export type Db = Kysely<Database>

class InlineMigrations implements MigrationProvider {
  async getMigrations() {
    return MIGRATIONS
  }
}

/**
 * Opens the database the config names and brings its schema to the latest migration.
 * SQLite runs in WAL mode with a busy timeout and synchronous=FULL: a commit survives
 * a crash of the process and of the machine (the lead promise).
 */
export async function openDatabase(config: DatabaseConfig, plugins: readonly KyselyPlugin[] = []): Promise<Db> {
  const sqlite = config.kind === 'sqlite' ? openSqlite(config.path, config.explicit) : null
  const dialect =
    config.kind === 'sqlite'
      ? new SqliteDialect({ database: sqlite!.database })
      : new OwnSchemaPostgresDialect({
          pool: await postgresPool(config.url),
          onCreateConnection: flushWritesEarly(config.url),
        })
  const db = new Kysely<Database>({ dialect, plugins: [...plugins] })
  if (sqlite?.checkpoints) CHECKPOINTS_OF.set(db, sqlite.checkpoints)
  try {
    if (config.kind === 'postgres') await waitForPostgres(db, config.url, config.waitMs)
    await migrate(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return db
}

/** Each SQLite database's checkpointing thread (sqlite-checkpoints.ts), by the Kysely it was opened as */
const CHECKPOINTS_OF = new WeakMap<Db, Checkpoints>()

/**
 * Resolves once SQLite has checkpointed what was committed before this call, on its own thread
 * (sqlite-checkpoints.ts); at once on PostgreSQL or without the thread. A long import waits for it
 * between two transactions, beside its pause: its log then starts over instead of growing.
 */
export function checkpointed(db: Db): Promise<void> {
  return CHECKPOINTS_OF.get(db)?.now() ?? Promise.resolve()
}

/**
 * A pool whose idle connections may break (a restart of the server, a network cut) without taking
 * the process down: pg emits 'error' for them, and an unheard 'error' event kills Node. The next
 * query opens a new connection.
 */
async function postgresPool(url: string): Promise<pg.Pool> {
  const { default: pgModule } = await import('pg') // SQLite sites never load it
  // A bigint (a price in kopecks, a count) as a number: every one the site keeps is a safe integer.
  const int8 = (text: string) => {
    const value = Number(text)
    return Number.isSafeInteger(value) ? value : text
  }
  /** PostgreSQL's type id of bigint (int8) */
  const INT8_OID = 20
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? int8 : pgModule.types.getTypeParser(oid, format)) as typeof pgModule.types.getTypeParser,
  }
  const pool = new pgModule.Pool({ connectionString: url, max: 10, types })
  pool.on('error', () => {})
  return pool
}

/**
 * Each new PostgreSQL session of the site sets `backend_flush_after`, unless the operator's
 * DATABASE_URL sets it (`options=-c backend_flush_after=…`). PostgreSQL leaves what a session writes
 * from its buffers to the kernel, which writes it back up to 30 s later, all at once: during a long
 * import the kernel held 30–130 MB unwritten and wrote it in bursts, and a lead committed during
 * one waited behind them for its log to reach the disk (101–237 ms, issue 43). With the setting
 * the session asks the kernel to start writing every 256 kB, as PostgreSQL's own background writer
 * and checkpointer do by default: what was held unwritten halved (decision 032, "Writes that reach
 * the disk as they go"). A SET after connecting, not a startup option, which connection poolers
 * may refuse; one refused leaves the session as it was.
 */
function flushWritesEarly(url: string): ((connection: DatabaseConnection) => Promise<void>) | undefined {
  const options = URL.canParse(url) ? new URL(url).searchParams.get('options') : null
  if (options?.includes('backend_flush_after')) return undefined
  return async (connection) => {
    await connection
      .executeQuery(CompiledQuery.raw(`SET backend_flush_after = '${BACKEND_FLUSH_AFTER}'`))
      .catch(() => {})
  }
}

/** What a site's session writes before PostgreSQL asks the kernel to write it back (its checkpointer's default) */
const BACKEND_FLUSH_AFTER = '256kB'

/** The database cannot be opened as configured: one line for the operator, naming what to check. */
class DatabaseStartError extends Error {
  override name = 'DatabaseStartError'
}

function openSqlite(file: string, explicit: boolean): { database: SQLiteDatabase; checkpoints: Checkpoints | null } {
  if (file !== ':memory:') {
    const folder = path.dirname(file)
    // The default folder is created on first start; a folder the operator named must exist, so a
    // typo stops the start instead of serving a new, empty (or demo) database.
    if (explicit && !fs.existsSync(folder)) {
      throw new DatabaseStartError(`DATABASE_URL names ${file}, but the folder ${folder} does not exist`)
    }
    fs.mkdirSync(folder, { recursive: true })
  }
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  database.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  database.pragma('synchronous = FULL')
  database.pragma('foreign_keys = ON')
  const checkpoints = file === ':memory:' ? null : checkpointOffThread(database, file)
  return { database: withStatementCache(database), checkpoints }
}

/**
 * Waits for PostgreSQL with backoff (0.5 s doubling to 5 s) for at most `waitMs`: a server that is
 * still starting next to the site is not a failure. Gives up with a line naming DATABASE_URL's
 * host (never its password) and what to check; a refused login or a missing database fails at once.
 */
async function waitForPostgres(db: Db, url: string, waitMs: number): Promise<void> {
  const { hostname, port, pathname } = new URL(url)
  const where = `${hostname}:${port || 5432}${pathname}`
  const deadline = Date.now() + waitMs
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      await sql`select 1`.execute(db)
      return
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string }
      const transient = code === undefined || TRANSIENT_CODES.has(code) || TRANSIENT_SQLSTATES.has(code)
      if (code === 'ENOTFOUND' || (transient && Date.now() + delay > deadline)) {
        const waited = transient && waitMs > 0 ? ` for ${Math.round(waitMs / 1000)} s` : ''
        throw new DatabaseStartError(
          `Cannot reach PostgreSQL at ${where} (DATABASE_URL)${waited}: ${code ?? message}. Check that the server runs, that DATABASE_URL names its host and port, and that it accepts connections from this machine`,
        )
      }
      if (!transient) {
        throw new DatabaseStartError(
          `PostgreSQL at ${where} (DATABASE_URL) refused the connection: ${message}. Check the user, password and database name in DATABASE_URL`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}

/**
 * Kysely looks for its migration tables in every schema it may read unless told which one: a
 * second site (or a test) in another schema of the same PostgreSQL database would make it skip
 * creating its own lock table and fail. Name the connection's own schema.
 */
async function migrationSchema(db: Db): Promise<string | undefined> {
  if (isSqlite(db)) return undefined
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema
}

async function migratorOf(db: Db): Promise<Migrator> {
  return new Migrator({
    db,
    provider: new InlineMigrations(),
    migrationTableSchema: await migrationSchema(db),
    // Capabilities are built side by side, each with its own migration of its own tables: one that
    // lands after a higher-numbered one is run too, not refused, on a database that already ran the
    // other. Each stays forward-only and independent of the others' tables.
    allowUnorderedMigrations: true,
  })
}

async function migrate(db: Db): Promise<void> {
  const migrator = await migratorOf(db)
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`Database migration ${failed} failed: ${(error as Error).message ?? error}`)
  }
}

/** Each database's schema of the migrations' own table: asked once, a pool's search_path does not change */
const migrationSchemas = new WeakMap<Db, Promise<string | undefined>>()

/**
 * How many known migrations the database has not run (GET /readyz): one read of the migrations'
 * own table, where Kysely's migrator would introspect every table of the schema on each call.
 */
export async function pendingMigrations(db: Db): Promise<number> {
  let schema = migrationSchemas.get(db)
  if (!schema) {
    schema = migrationSchema(db)
    migrationSchemas.set(db, schema)
    schema.catch(() => migrationSchemas.delete(db))
  }
  const owner = await schema
  const table = sql.table(owner ? `${owner}.${DEFAULT_MIGRATION_TABLE}` : DEFAULT_MIGRATION_TABLE)
  const known = Object.keys(MIGRATIONS)
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db)
    const ran = new Set(rows.map((row) => row.name))
    return known.filter((name) => !ran.has(name)).length
  } catch (error) {
    // No table of migrations at all (dropped since the start): every one is pending
    if (isMissingTable(error)) return known.length
    throw error
  }
}

function isMissingTable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string }
  return code === '42P01' || /no such table/.test(message ?? '')
}

/** Marks the content as changed, inside the write's own transaction (see ContentService). */
export async function bumpContentVersion(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('contentVersion')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute()
}

/** The current content version: compared by each process to notice writes of the others. */
export async function readContentVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('contentVersion').select('version').where('id', '=', 1).executeTakeFirst()
  return row?.version ?? 0
}

// Compiled queries by dialect (each Kysely instance's adapter, shared with its transactions), then
// by the caller's key.
const compiledQueries = new WeakMap<object, Map<string, CompiledQuery>>()

/**
 * Runs a query built and compiled once per database and `key`, with this call's `parameters`: a
 * page's reads run the same few statements on every rendering, and Kysely would otherwise build
 * and compile each one's tree anew every time. The key names the query and its shape (the length
 * of an `in` list, say); `parameters` are its values in the order they appear in the SQL, which the
 * first compilation checks. Still one query layer: `build` is an ordinary Kysely query.
 */
export async function executeCompiled<R>(
  db: Kysely<Database>,
  key: string,
  parameters: readonly unknown[],
  build: () => Compilable<R>,
): Promise<R[]> {
  const { adapter } = db.getExecutor()
  let queries = compiledQueries.get(adapter)
  if (!queries) {
    queries = new Map()
    compiledQueries.set(adapter, queries)
  }
  let compiled = queries.get(key)
  if (!compiled) {
    compiled = build().compile()
    if (
      compiled.parameters.length !== parameters.length ||
      compiled.parameters.some((value, i) => value !== parameters[i])
    ) {
      throw new Error(`executeCompiled(${key}): the parameters given are not the query's, in its order`)
    }
    queries.set(key, compiled)
  }
  const { rows } = await db.executeQuery<R>({ ...compiled, parameters })
  return rows
}

/** ISO 8601 timestamp used for every createdAt/updatedAt column. */
export function now(): string {
  return new Date().toISOString()
}
