// A 1C file is parsed once (issue 43, item 3; server/catalogue/exchange/exchange-staging.ts): the
// first `import` call keeps its records as staged items, and every later step, in whichever
// process, reads the next ones by position. So an import goes on in another process even once the
// file itself is gone, a file sent again in the same session is imported as it is now (not as a
// process remembered it), a product's offers spread over the file are still one product's, and
// nothing staged outlives the exchange. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { spawnLeadWorker } from '../helpers/lead-worker'
import {
  enableExchange,
  EXCHANGE_ENV,
  httpTransport,
  importXml,
  injectTransport,
  offersXml,
  OneCClient,
  type Product,
} from '../helpers/one-c'

type App = Awaited<ReturnType<typeof buildApp>>

const products = (prefix: string, count: number): Product[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    name: `Саморез ${prefix} №${String(i).padStart(3, '0')}`,
    article: `${prefix.toUpperCase()}-${i}`,
  }))

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a 1C file staged once on ${dialect.name}`, () => {
    let t: TestApp
    let second: App
    beforeAll(async () => {
      // Steps of 1 ms: every call takes one step and answers `progress`.
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      second = await buildApp(t.config, { exchangeStepMs: 1 })
      await second.ready()
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await second?.close()
      await t?.close()
    })

    const titleOf = async (externalId: string) =>
      (await t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .leftJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.title', 'product.price', 'product.availability'])
        .where('exchangeRecord.externalId', '=', externalId)
        .executeTakeFirst()) ?? null
    /** Two clients of one session, one in each process. */
    async function clients() {
      const one = new OneCClient(injectTransport(t.app))
      expect((await one.checkauth()).lines[0]).toBe('success')
      await one.init()
      const other = new OneCClient(injectTransport(second))
      other.cookie = one.cookie
      other.fileLimit = one.fileLimit
      return { one, other }
    }

    it('goes on in the other process from the staged items, though the file itself is gone', async () => {
      const { one, other } = await clients()
      const file = importXml({ products: products('st', 120) })
      expect((await one.sendFile('import.xml', file, 4096)).lines[0]).toBe('success')
      // The first call stages the file and takes one step.
      const first = await one.call('type=catalog&mode=import&filename=import.xml')
      expect(first.lines[0]).toBe('progress')
      // The file's parts are gone: only the staged items can carry the import on.
      await t.app.db.deleteFrom('exchangeFile').where('name', '=', 'import.xml').execute()
      const done = await other.importFile('import.xml')
      expect(done.lines[0], done.body).toBe('success')
      expect(other.progressCalls).toBeGreaterThan(0)
      for (const i of [0, 57, 119]) {
        expect((await titleOf(`st-${i}`))?.title).toBe(`Саморез st №${String(i).padStart(3, '0')}`)
      }
      expect((await one.call('type=catalog&mode=complete')).lines[0]).toBe('success')
      const left = await t.app.db.selectFrom('exchangeStaged').select('pos').execute()
      expect(left).toEqual([])
    })

    it('imports a file sent again in the same session as it is now, whichever process parsed it before', async () => {
      // A second server process (as a second PM2 worker) on the same database.
      const database = t.config.database
      const worker = await spawnLeadWorker(t.dir, {
        ...EXCHANGE_ENV,
        ...(database.kind === 'postgres' ? { DATABASE_URL: database.url } : {}),
      })
      try {
        await resentFile(worker.url)
      } finally {
        await worker.stop()
      }
    })

    async function resentFile(workerUrl: string) {
      const one = new OneCClient(injectTransport(t.app))
      expect((await one.checkauth()).lines[0]).toBe('success')
      await one.init()
      const other = new OneCClient(httpTransport(workerUrl))
      other.cookie = one.cookie
      other.fileLimit = one.fileLimit
      const version = (name: string) => importXml({ products: [{ id: 'same-size', name, article: 'SS-1' }] })
      const [before, after] = [version('Шуруп версии А'), version('Шуруп версии Б')]
      expect(before.length).toBe(after.length)
      expect((await one.sendFile('import.xml', before)).lines[0]).toBe('success')
      expect((await one.importFile('import.xml')).lines[0]).toBe('success')
      expect((await titleOf('same-size'))?.title).toBe('Шуруп версии А')
      // 1C starts the exchange over in the other process and sends the file again, the same size.
      await other.init()
      expect((await other.sendFile('import.xml', after)).lines[0]).toBe('success')
      expect((await one.importFile('import.xml')).lines[0]).toBe('success')
      expect((await titleOf('same-size'))?.title).toBe('Шуруп версии Б')
    }

    it("takes a product's offers spread over the file as that product's: the lowest price, in stock if any is", async () => {
      const client = new OneCClient(injectTransport(t.app))
      const priceTypes = [{ id: 'pt-retail', name: 'Розничная' }]
      const filler = Array.from({ length: 30 }, (_, i) => ({
        id: `st-${i}`,
        prices: { 'pt-retail': 100 + i },
        quantity: 1,
      }))
      const answers = await client.exchange({
        'offers.xml': offersXml({
          priceTypes,
          offers: [
            { id: 'st-100#red', name: 'Саморез красный', prices: { 'pt-retail': 450 }, quantity: 0 },
            ...filler,
            { id: 'st-100#blue', name: 'Саморез синий', prices: { 'pt-retail': 390 }, quantity: 5 },
            // The same offer twice: the last one counts, and the log says so.
            { id: 'st-101', prices: { 'pt-retail': 10 }, quantity: 1 },
            { id: 'st-101', prices: { 'pt-retail': 20 }, quantity: 0 },
          ],
        }),
      })
      // 1C hears of the duplicate (the run failed: something it sent was not taken as sent); the rest applied.
      expect(answers.map((a) => a.lines[0])).toEqual(['failure'])
      expect(answers[0].body).toContain('st-101')
      expect(await titleOf('st-100')).toMatchObject({ price: 39000, availability: 'in_stock' })
      expect(await titleOf('st-101')).toMatchObject({ price: 2000, availability: 'out_of_stock' })
      expect(await titleOf('st-7')).toMatchObject({ price: 10700 })
      const run = await t.app.db
        .selectFrom('exchangeRun')
        .select('report')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(JSON.parse(run.report).skipped).toContainEqual(
        expect.objectContaining({ what: expect.stringContaining('st-101'), why: expect.stringMatching(/повторяется/) }),
      )
    })

    it('names in its log, by Ид and Наименование, an offer of a product it lacks and a good 1C deleted', async () => {
      const client = new OneCClient(injectTransport(t.app))
      const answers = await client.exchange({
        'import.xml': importXml({ products: [{ ...products('st', 6)[5], deleted: true }] }),
        'offers.xml': offersXml({
          priceTypes: [{ id: 'pt-retail', name: 'Розничная' }],
          offers: [{ id: 'zz-1', name: 'Пила неизвестная', prices: { 'pt-retail': 990 }, quantity: 1 }],
        }),
      })
      expect(answers.map((a) => a.lines[0])).toEqual(['success', 'success'])
      const run = await t.app.db
        .selectFrom('exchangeRun')
        .select('report')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(JSON.parse(run.report).skipped).toEqual([
        { what: 'Товар st-5 «Саморез st №005»', why: 'удалён в 1С: снят с сайта (410)' },
        { what: 'Предложение zz-1 «Пила неизвестная»', why: 'товара с этим Ид нет на сайте' },
      ])
    })
  })
}
