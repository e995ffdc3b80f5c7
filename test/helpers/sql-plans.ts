// The statements a piece of code runs, and the plan SQLite chooses for each: for tests that a read
// finds its rows through an index rather than by walking a table that grows with the catalogue.
import { CompiledQuery, type KyselyPlugin, type QueryResult, type UnknownRow } from 'kysely'
import type { Db } from '../../server/data/db'

/** The SQL and parameters of each statement `db` runs while `fn` runs. */
export async function statementsOf(db: Db, fn: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = []
  const executor = db.getExecutor()
  const recorder: KyselyPlugin = {
    transformQuery(args) {
      seen.push(executor.compileQuery(args.node, args.queryId))
      return args.node
    },
    async transformResult(args): Promise<QueryResult<UnknownRow>> {
      return args.result
    },
  }
  await fn(db.withPlugin(recorder))
  return seen
}

/** SQLite's plan of `query`, its steps joined by "; ". */
export async function planOf(db: Db, query: CompiledQuery): Promise<string> {
  const result = await db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]))
  return result.rows.map((row) => (row as { detail: string }).detail).join('; ')
}
