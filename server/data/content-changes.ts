// The log of recent content changes (migration 022, docs/decisions/033-selective-invalidation.md):
// the write door records what each version changed as the pages see it, in the write's own
// transaction; another process that notices a new version reads what the versions since the one it
// knew changed, and drops only those pages. Bounded: rows KEPT_VERSIONS behind the newest go.
import type { Kysely } from 'kysely'
import { readContentVersion } from './db'
import type { Database } from './schema'

/** What the write that made each recent content version changed, as the pages see it */
export interface ContentChangeTable {
  version: number
  /** JSON array of page tags (src/site/page-tags.ts); null: every page */
  pages: string | null
}

// The table's type joins the schema's from here, beside the only code that reads or writes it.
declare module './schema' {
  interface Database {
    contentChange: ContentChangeTable
  }
}

/** Versions the log keeps: a process that fell further behind drops every page. */
export const KEPT_VERSIONS = 1000
/** Tags a row keeps at most; a write that changed more is recorded as a change of every page. */
export const MAX_TAGS = 20_000

/**
 * Records what the version just bumped in this transaction changed (`null`: every page) and
 * forgets versions far behind it. Returns that version.
 */
export async function recordContentChange(trx: Kysely<Database>, tags: readonly string[] | null): Promise<number> {
  const version = await readContentVersion(trx)
  const pages = tags === null || tags.length > MAX_TAGS ? null : JSON.stringify(tags)
  await trx.insertInto('contentChange').values({ version, pages }).execute()
  await trx
    .deleteFrom('contentChange')
    .where('version', '<=', version - KEPT_VERSIONS)
    .execute()
  return version
}

/**
 * What the versions after `from` up to `to` changed: the union of their tags, or null when any of
 * them changed every page or is no longer (or not) in the log. `skip`: versions whose change this
 * process already applied (its own writes).
 */
export async function readContentChanges(
  db: Kysely<Database>,
  from: number,
  to: number,
  skip: ReadonlySet<number> = new Set(),
): Promise<Set<string> | null> {
  if (to <= from || to - from > KEPT_VERSIONS) return null
  const rows = await db
    .selectFrom('contentChange')
    .select(['version', 'pages'])
    .where('version', '>', from)
    .where('version', '<=', to)
    .execute()
  if (rows.length !== to - from) return null
  const tags = new Set<string>()
  for (const row of rows) {
    if (skip.has(row.version)) continue
    if (row.pages === null) return null
    for (const tag of JSON.parse(row.pages) as string[]) tags.add(tag)
  }
  return tags
}
