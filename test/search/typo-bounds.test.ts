// The typo path's work is bounded per request (issue #36, item 4): eight unknown 9-letter words
// against a 40,000-word vocabulary cost about what a normal search costs, never 16 searches and
// tens of thousands of candidate rows. Counted as behaviour (queries issued and rows read through
// a Kysely plugin), never as a time; a one-word typo in a crowded corner of the vocabulary is
// still corrected.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../helpers/dialects'
import type { TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN } from '../api/helpers'
import { writeCatalogue } from './search-helpers'
import { correctQuery, TYPO_LIMITS } from '../../server/catalogue/search/search-typo'
import { queryOf } from '../../server/catalogue/search/search-query'
import { tokenOf } from '../../server/catalogue/search/search-text'

/** Queries and rows of every statement the app runs while `active`. */
class WorkCounter implements KyselyPlugin {
  active = false
  queries = 0
  rows = 0
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.active) this.queries++
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.active) this.rows += args.result.rows.length
    return args.result
  }
}

const VOCABULARY = 40_000
const LETTERS = 'абвгдежзиклмнопрстуфхцчшщэюя'

/** A deterministic pseudo-random word generator (xorshift), so both databases get the same words. */
function words(seed: number) {
  let x = seed
  const next = () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
  return (head: string, length: number) => {
    let word = head
    while (word.length < length) word += LETTERS[Math.floor(next() * LETTERS.length)]
    return word
  }
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the typo path's work on ${dialect.name}`, () => {
    let t: TestApp
    const counter = new WorkCounter()
    let vocabulary: string[] = []

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN }, { databasePlugins: [counter] })
      await writeCatalogue(t)
      // A crowded vocabulary: every word begins with one of four letters, 7 to 11 letters long, so
      // a 9-letter word of those heads has thousands of candidates.
      const make = words(0x9e3779b9)
      const seen = new Set<string>()
      const rows = []
      while (rows.length < VOCABULARY) {
        const word = make('пскм'[rows.length % 4], 7 + (rows.length % 5))
        const token = tokenOf(word)
        if (seen.has(token)) continue
        seen.add(token)
        rows.push({ token, word, head: token[0], length: [...token].length, uses: 1 })
      }
      vocabulary = rows.map((row) => row.word)
      for (let i = 0; i < rows.length; i += 1000) {
        await t.app.db
          .insertInto('searchWord')
          .values(rows.slice(i, i + 1000))
          .onConflict((c) => c.doNothing())
          .execute()
      }
    }, 120_000)
    afterAll(() => t?.close())
    beforeEach(() => {
      counter.queries = 0
      counter.rows = 0
    })

    const work = async (q: string) => {
      counter.queries = 0
      counter.rows = 0
      counter.active = true
      try {
        const answer = await t.app.catalogueSearch.find(q, 1)
        return { answer, queries: counter.queries, rows: counter.rows }
      } finally {
        counter.active = false
      }
    }

    it('spends on eight unknown words no more than a few normal searches', async () => {
      const normal = await work('холодильник')
      const make = words(12345)
      const gibberish = Array.from({ length: 8 }, (_, i) => make('пскм'[i % 4], 9)).join(' ')
      const typo = await work(gibberish)
      expect(typo.answer.products).toEqual([])
      expect(typo.queries).toBeLessThanOrEqual(normal.queries + 4)
      expect(typo.rows).toBeLessThanOrEqual(4000)
    })

    /** The word with its middle letter changed: one typo. */
    const mistype = (word: string) => {
      const at = Math.floor(word.length / 2)
      return word.slice(0, at) + (word[at] === 'ы' ? 'ъ' : 'ы') + word.slice(at + 1)
    }

    it('bounds three mistyped words that each have a correction', async () => {
      const used = vocabulary.slice(0, 4)
      await t.app.db.updateTable('searchWord').set({ uses: 40 }).where('word', 'in', used).execute()
      const corrected = await correctQuery(t.app.db, queryOf(used.slice(0, 3).map(mistype)))
      expect(corrected?.words).toEqual(used.slice(0, 3))
      const three = await work([0, 1, 2].map((n) => mistype(vocabulary[n])).join(' '))
      // the search (two tiers), two lookups of the unknown words (whole, and the last as a
      // prefix), a candidate read and a word read per word, and the retry (two tiers)
      expect(three.queries).toBeLessThanOrEqual(2 + 2 + 2 * 3 + 2)
      expect(three.rows).toBeLessThanOrEqual(TYPO_LIMITS.candidates + 10)
      // Past the words corrected, no candidate is read: at most the one row of PostgreSQL's
      // vocabulary bound (search-query.ts), which tells the search that no record has the words.
      expect((await work([0, 1, 2, 3].map((n) => mistype(vocabulary[n])).join(' '))).rows).toBeLessThanOrEqual(1)
    })

    it('still corrects one typo, in a crowded corner of the vocabulary too', async () => {
      const fixed = await work('холодильнек')
      expect(fixed.answer.suggestion).toMatch(/^холодильник/)
      expect(fixed.answer.products.length).toBeGreaterThan(0)
      // A used word among thousands of the same first letter and length is found.
      const target = vocabulary.find((word) => word.length === 9 && word.startsWith('п'))!
      await t.app.db.updateTable('searchWord').set({ uses: 40 }).where('word', '=', target).execute()
      const corrected = await correctQuery(t.app.db, queryOf([mistype(target), 'холодильник']))
      expect(corrected?.words).toEqual([target, 'холодильник'])
    })
  })
}
