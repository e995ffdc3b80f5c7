// Free URLs for new records, many at once (issue #35): the price list's new products and sections,
// and the 1C exchange's. A URL is its parent's URL and the name transliterated (`transliteration`,
// Yandex's style: ц → c), then -2, -3 … while taken; a URL counts as taken with or without its
// trailing slash (the site answers both). The records that could collide with N new ones are
// found in one query per 200 distinct names — every URL equal to a wanted one or starting with it
// and a hyphen — not one query per candidate: 100 rows named like 5,100 existing products took 8 s.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../data/dialect'
import type { Database } from '../data/schema'
import { yieldToOthers } from './import-claim'
import type * as Transliteration from 'transliteration'

const CHUNK = 200
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

/** The name as a URL segment: transliterated, lower case, hyphens; '' when nothing is left. */
export async function slugOf(name: string): Promise<string> {
  // A dynamic import per name goes through the module loader each time: 10,000 names took 0.8 s.
  const { slugify } = await (transliteration ??= import('transliteration'))
  return slugify(name, { lowercase: true, separator: '-' }).slice(0, SLUG_LENGTH).replace(/-+$/, '')
}

/**
 * One free URL for each wanted record, distinct from each other and from every record's URL
 * (`taken` adds URLs this import has already given out). Reads, writes nothing: call it inside the
 * import's claim, so no other import takes the URLs before they are written.
 */
export async function findFreeUrls(
  db: Kysely<Database>,
  wanted: readonly WantedUrl[],
  taken: Set<string> = new Set(),
): Promise<string[]> {
  const bases: string[] = []
  for (const [i, want] of wanted.entries()) {
    // Transliterating 10,000 names takes a while: other requests get their turn meanwhile.
    if (i % 500 === 499) await yieldToOthers()
    const folder = want.parentUrl.endsWith('/') ? want.parentUrl : `${want.parentUrl}/`
    const slug = (await slugOf(want.name)) || (want.fallback ? await slugOf(want.fallback) : '') || 'item'
    bases.push(`${folder}${slug}`)
  }
  const distinct = [...new Set(bases)]
  for (let i = 0; i < distinct.length; i += CHUNK) {
    await yieldToOthers()
    for (const url of await urlsLike(db, distinct.slice(i, i + CHUNK))) taken.add(url.replace(/\/$/, ''))
  }
  return bases.map((base, i) => {
    for (let n = 1; ; n++) {
      const url = n === 1 ? base : `${base}-${n}`
      if (taken.has(url)) continue
      taken.add(url)
      return wanted[i].folder ? `${url}/` : url
    }
  })
}

/** Every record URL equal to a base (with or without a slash) or starting with `base-`. */
async function urlsLike(db: Kysely<Database>, bases: readonly string[]): Promise<string[]> {
  // `base-` … `base.` is every string that starts with `base-` in code point order ('.' follows
  // '-'), which SQLite's BINARY and PostgreSQL's "C" collation use (an index of its own, 021).
  const url = isSqlite(db) ? sql.ref('urlFull') : sql`${sql.ref('urlFull')} collate "C"`
  const rows = await db
    .selectFrom('structure')
    .select('urlFull')
    .where((eb) =>
      eb.or([
        eb('urlFull', 'in', [...bases, ...bases.map((b) => `${b}/`)]),
        ...bases.map((b) => eb.and([eb(url, '>=', `${b}-`), eb(url, '<', `${b}.`)])),
      ]),
    )
    .execute()
  return rows.map((row) => row.urlFull)
}
