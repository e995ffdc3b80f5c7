// Queries built and compiled once per shape, then run with each request's values. Building and
// compiling a Kysely query costs about as much CPU as SQLite takes to answer it (a section page's
// listing: ~0.3 ms of a 3 ms page), and a page asks the same few queries with other values every
// time. A value that changes is written as `slot(name)`; the compiled query keeps the slot in its
// parameters, and each run puts the request's value in its place.
import type { CompiledQuery, Compilable, Kysely, Transaction } from 'kysely'
import type { Database } from './schema'

type Queryable = Kysely<Database> | Transaction<Database>

class Slot {
  constructor(readonly name: string) {}
}

/** A value filled in when the query runs: `where('parentId', '=', slot<number>('section'))`. */
export function slot<T>(name: string): T {
  return new Slot(name) as unknown as T
}

/**
 * A query per shape: `build(db, shape)` is called once for each database handle and shape (the
 * parts of a request that change the SQL text, e.g. which filters are set), with slots for every
 * value; `run(db, shape, values)` answers it with the values named by the slots.
 */
export function preparedQuery<Row, Values extends Record<string, unknown>>(
  build: (db: Queryable, shape: string) => Compilable<Row>,
) {
  const compiled = new WeakMap<Queryable, Map<string, CompiledQuery<Row>>>()
  return async function run(db: Queryable, shape: string, values: Values): Promise<Row[]> {
    let shapes = compiled.get(db)
    if (!shapes) compiled.set(db, (shapes = new Map()))
    let query = shapes.get(shape)
    if (!query) shapes.set(shape, (query = build(db, shape).compile()))
    const parameters = query.parameters.map((p) => (p instanceof Slot ? slotValue(values, p.name) : p))
    const { rows } = await db.executeQuery<Row>({ ...query, parameters })
    return rows
  }
}

function slotValue(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`prepared query: no value for slot "${name}"`)
  return values[name]
}
