// The better-sqlite3 build this Node can run (docs/decisions/017-sqlite-driver.md).
//
// better-sqlite3 12 and older wrap their objects with node::ObjectWrap, and Node 24.19+ aborts the
// process (SIGABRT, `Assertion failed: (env) != nullptr`) when the garbage collector finalizes
// one of their statements (nodejs/node#65446): a site on Node 24 would die at random after writes.
// better-sqlite3 13 uses Node-API 10 instead and does not crash, but Node-API 10 starts at
// Node 22.14, so Node 20 gets 12 (installed under the alias better-sqlite3-node20).
import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

const require = createRequire(import.meta.url)

/** Node-API 10 is what better-sqlite3 13 is built against. */
const hasNodeApi10 = Number(process.versions.napi) >= 10

/** The driver's package: what this process loads, and what a thread of it loads too */
const DRIVER = hasNodeApi10 ? 'better-sqlite3' : 'better-sqlite3-node20'

function load(): typeof BetterSqlite3 {
  try {
    return require(DRIVER) as typeof BetterSqlite3
  } catch (error) {
    if (hasNodeApi10) throw error
    throw new Error(
      `SQLite driver for Node ${process.version} is missing: run npm install again (it builds better-sqlite3 12, which needs g++), or use Node 22.14 or later (${(error as Error).message})`,
      { cause: error },
    )
  }
}

export const SQLite = load()
/** Where the driver this process runs was loaded from (sqlite-checkpoints.ts) */
export const SQLITE_DRIVER_PATH = require.resolve(DRIVER)
export type SQLiteDatabase = BetterSqlite3.Database
