// Free URLs for new records, many at once (issue #35): the price list's new products and sections,
// and the 1C exchange's. A URL is its parent's URL and the name transliterated (`transliteration`,
// Yandex's style: ц → c), then -2, -3 … while taken; a URL counts as taken with or without its
// trailing slash (the site answers both). The records that could collide with N new ones are
// found in one query per 200 distinct names — every URL equal to a wanted one or starting with it
// and a hyphen, page by page when they are many — not one query per candidate: 100 rows named like
// 5,100 existing products took 8 s.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../data/sql/dialect'
import type { Database } from '../data/schema'
import { yieldToOthers } from './import-claim'
import type * as Transliteration from 'transliteration'

const CHUNK = 200
/** Namesakes read per query: about 1 ms of SQLite's process */
const PAGE = 2000
const SLUG_LENGTH = 80

export interface WantedUrl {
  /** The parent's URL, with or without its trailing slash */
  readonly parentUrl: string
  /** The name the URL is made from */
  readonly name: string
  /** Used when the name has no letter or digit to transliterate */
  readonly fallback?: string
  /** A section's URL ends with a slash */
  readonly folder?: boolean
}

/** The transliteration library, loaded on first use (decision 031, "Start-up"), once. */
let transliteration: Promise<typeof Transliteration> | null = null

function loadTransliteration(): Promise<typeof Transliteration> {
  return (transliteration ??= import('transliteration'))
}

/** The name as a URL segment: transliterated, lower case, hyphens; '' when nothing is left. */
export async function slugOf(name: string): Promise<string> {
  // A dynamic import per name goes through the module loader each time: 10,000 names took 0.8 s.
  const { slugify } = await loadTransliteration()
  return slugify(name, { lowercase: true, separator: '-' }).slice(0, SLUG_LENGTH).replace(/-+$/, '')
}

/**
 * One free URL for each wanted record, distinct from each other and from every record's URL
 * (`taken` adds URLs this import has already given out). Reads, writes nothing: call it inside the
 * import's claim, so no other import takes the URLs before they are written.
 *
 * Linear in the rows and the namesakes (issue #43): each base remembers the next suffix to try, so
 * a suffix found taken is never tried again — 2,000 rows beside 12,200 namesakes tried each suffix
 * once per row and stalled the site for 9.6 s. A suffix passed over stays taken (`taken` only grows),
 * so every row still gets the smallest suffix free at its turn.
 */
export async function findFreeUrls(
  db: Kysely<Database>,
  wanted: readonly WantedUrl[],
  taken: Set<string> = new Set(),
): Promise<string[]> {
  // Loading the library holds the event loop about 70 ms, once: the names wait for their turn.
  await loadTransliteration()
  const bases: string[] = []
  for (const [i, want] of wanted.entries()) {
    // Transliterating 10,000 names takes a while: other requests get their turn meanwhile.
    if (i % 250 === 0) await yieldToOthers()
    const folder = want.parentUrl.endsWith('/') ? want.parentUrl : `${want.parentUrl}/`
    const slug = (await slugOf(want.name)) || (want.fallback ? await slugOf(want.fallback) : '') || 'item'
    bases.push(`${folder}${slug}`)
  }
  for (const url of [...taken]) if (url.endsWith('/')) taken.add(url.replace(/\/+$/, ''))
  const distinct = [...new Set(bases)]
  for (let i = 0; i < distinct.length; i += CHUNK) {
    await yieldToOthers()
    for await (const page of urlsLike(db, distinct.slice(i, i + CHUNK))) {
      for (const url of page) taken.add(url.replace(/\/$/, ''))
    }
  }
  const next = new Map<string, number>()
  const urls: string[] = []
  for (const [i, base] of bases.entries()) {
    if (i % 1000 === 999) await yieldToOthers()
    let n = next.get(base) ?? 1
    while (taken.has(n === 1 ? base : `${base}-${n}`)) n++
    const url = n === 1 ? base : `${base}-${n}`
    taken.add(url)
    next.set(base, n + 1)
    urls.push(wanted[i].folder ? `${url}/` : url)
  }
  return urls
}

/**
 * Every record URL equal to a base (with or without a slash) or starting with `base-`, a page at a
 * time: one query for the bases when their namesakes are few (most imports), each base's namesakes
 * in pages in URL order when they are many — one unpaged query for 110,000 namesakes held SQLite's
 * process for 60–100 ms.
 */
async function* urlsLike(db: Kysely<Database>, bases: readonly string[]): AsyncGenerator<string[]> {
  const url = byteOrder(db)
  const exact = [...bases, ...bases.map((b) => `${b}/`)]
  const few = await db
    .selectFrom('structure')
    .select('urlFull')
    .where((eb) =>
      eb.or([eb('urlFull', 'in', exact), ...bases.map((b) => eb.and([eb(url, '>=', `${b}-`), eb(url, '<', `${b}.`)]))]),
    )
    .limit(PAGE + 1)
    .execute()
  yield few.map((row) => row.urlFull)
  if (few.length <= PAGE) return
  const exactRows = await db.selectFrom('structure').select('urlFull').where('urlFull', 'in', exact).execute()
  yield exactRows.map((row) => row.urlFull)
  for (const base of bases) {
    let after: string | null = null
    for (;;) {
      await yieldToOthers()
      const page = await namesakesAfter(db, base, after)
      yield page
      if (page.length < PAGE) break
      after = page[page.length - 1]
    }
  }
}

/** A page of the URLs starting with `base-`, in URL order, after `after` (from the first when null). */
async function namesakesAfter(db: Kysely<Database>, base: string, after: string | null): Promise<string[]> {
  const url = byteOrder(db)
  const rows = await db
    .selectFrom('structure')
    .select('urlFull')
    .where((eb) => eb.and([after === null ? eb(url, '>=', `${base}-`) : eb(url, '>', after), eb(url, '<', `${base}.`)]))
    .orderBy(url)
    .limit(PAGE)
    .execute()
  return rows.map((row) => row.urlFull)
}

/**
 * `urlFull` compared byte by byte: `base-` … `base.` is then every string that starts with `base-`
 * ('.' follows '-'), as SQLite's BINARY and PostgreSQL's "C" collation order it (an index of its
 * own, 021).
 */
function byteOrder(db: Kysely<Database>) {
  return isSqlite(db) ? sql.ref('urlFull') : sql`${sql.ref('urlFull')} collate "C"`
}
