// Free URLs for many new records sharing one name beside many existing namesakes, on both
// databases (issue #43): every URL is new, with or without its trailing slash, and distinct from the
// others, gaps among the namesakes are filled first, and the work grows with rows + namesakes, not
// rows × namesakes (2,000 price-list rows named like 12,200 products stalled the site for 9.6 s).
// The work is counted, not timed: every candidate URL is one look-up in the `taken` set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreeUrls, slugOf } from '../../server/catalogue/free-urls'
import { now, type Db } from '../../server/data/db'
import { writeTransaction } from '../../server/data/write-transaction'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

/** A real Set that counts its look-ups: the candidates findFreeUrls tried. */
class CountedSet extends Set<string> {
  lookups = 0
  override has(value: string): boolean {
    this.lookups++
    return super.has(value)
  }
}

const PARENT = '/structure/garden/'
const NAME = 'Пила цепная'
const NAMESAKES = 3000
const ROWS = 3000

/** Records at these URLs under the garden section, written straight into the database. */
async function writeRecords(db: Db, urls: readonly string[]): Promise<void> {
  const stamp = now()
  await writeTransaction(db, async (trx) => {
    const parent = await trx
      .selectFrom('structure')
      .select('id')
      .where('urlFull', '=', PARENT)
      .executeTakeFirstOrThrow()
    for (let from = 0; from < urls.length; from += 500) {
      await trx
        .insertInto('structure')
        .values(
          urls.slice(from, from + 500).map((urlFull, k) => ({
            parentId: parent.id,
            typeId: 'section',
            title: NAME,
            urlFull,
            sort: 5000 + from + k,
            published: 1,
            status: null,
            content: null,
            metaTitle: null,
            metaDescription: null,
            metaImage: null,
            metaRobots: null,
            metaJsonLd: null,
            createdAt: stamp,
            updatedAt: stamp,
          })),
        )
        .execute()
    }
  })
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`free URLs beside many namesakes on ${dialect.name}`, () => {
    let t: TestApp
    let base: string
    /** The namesakes' URLs as stored, some with a trailing slash */
    const stored: string[] = []
    /** Suffixes left free among the namesakes */
    const gaps = [17, 400, 2500]
    beforeAll(async () => {
      t = await dialect.build()
      base = `${PARENT}${await slugOf(NAME)}`
      stored.push(base)
      for (let n = 2; n <= NAMESAKES; n++) {
        if (gaps.includes(n)) continue
        stored.push(n % 7 === 0 ? `${base}-${n}/` : `${base}-${n}`)
      }
      // Namesakes of the namesakes: URLs of other names that start with the base and a hyphen.
      stored.push(`${base}-5-2`, `${base}-10-3/`, `${base}-abc`, `${base}-${NAMESAKES + 2}-2`)
      await writeRecords(t.app.db, stored)
    })
    afterAll(async () => {
      await t?.close()
    })

    it('gives every row a URL no record has and no other row gets, trying each suffix once', async () => {
      const wanted = [
        ...Array.from({ length: ROWS }, () => ({ parentUrl: PARENT, name: NAME })),
        // Names whose URL is a namesake's: "Пила цепная 5" is taken, and so is its -2.
        { parentUrl: PARENT, name: `${NAME} 5` },
        { parentUrl: PARENT, name: `${NAME} 10` },
        { parentUrl: PARENT, name: `${NAME} ${NAMESAKES + 2}` },
        { parentUrl: PARENT.slice(0, -1), name: NAME, folder: true },
      ]
      const taken = new CountedSet()
      const urls = await findFreeUrls(t.app.db, wanted, taken)

      expect(urls).toHaveLength(wanted.length)
      expect(new Set(urls.map((url) => url.replace(/\/$/, ''))).size).toBe(urls.length)
      const existing = new Set(stored.map((url) => url.replace(/\/$/, '')))
      expect(urls.filter((url) => existing.has(url.replace(/\/$/, '')))).toEqual([])

      // The gaps first, then the suffixes after the last namesake, in order.
      const plain = urls.slice(0, ROWS)
      expect(plain.slice(0, gaps.length)).toEqual(gaps.map((n) => `${base}-${n}`))
      expect(plain.slice(gaps.length)).toEqual(
        Array.from({ length: ROWS - gaps.length }, (_, i) => `${base}-${NAMESAKES + 1 + i}`),
      )
      // "-5" and "-5-2" are records, "-10-3" a section; "-3002" is given out above, "-3002-2" a record.
      expect(urls.slice(ROWS, ROWS + 3)).toEqual([`${base}-5-3`, `${base}-10-2`, `${base}-${NAMESAKES + 2}-3`])
      expect(urls[ROWS + 3]).toBe(`${base}-${NAMESAKES + ROWS - gaps.length + 1}/`)

      // Each suffix of a name is looked up once, plus one free one per row: rows + namesakes, not
      // rows × namesakes (13.5 million look-ups for these 3,000 rows before issue #43).
      expect(taken.lookups).toBeLessThanOrEqual(2 * (wanted.length + stored.length))
    })
  })
}
