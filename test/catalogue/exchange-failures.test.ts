// Every 1C failure says what failed (issue 43, item 5), on SQLite and PostgreSQL: a duplicate Ид,
// 20,000 nested groups, prices no column can hold and an item the database refuses are each named
// (Ид and Наименование) in a `failure` 1C hears and in the exchange's log; the run is marked failed,
// never success; and the rest of the file is applied, so one bad item never blocks those after it.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import {
  enableExchange,
  EXCHANGE_ENV,
  OneCClient,
  importXml,
  injectTransport,
  offersXml,
  type Answer,
} from '../helpers/one-c'

const PRICE_TYPES = [{ id: 'pt-retail', name: 'Розничная' }]

/** A group nested `depth` deep (ids deep-1 … deep-N), built without recursion. */
function nestedGroups(depth: number): string {
  const open: string[] = []
  for (let i = 1; i <= depth; i++)
    open.push(`<Группа><Ид>deep-${i}</Ид><Наименование>Уровень ${i}</Наименование><Группы>`)
  return `<Группы>${open.join('')}${'</Группы></Группа>'.repeat(depth)}</Группы>`
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`1C failures named on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      await enableExchange(t.app, { priceType: 'Розничная', oldPriceType: '' })
    })
    afterAll(async () => {
      await t?.close()
    })

    const product = (externalId: string) =>
      t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .leftJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'structure.title', 'structure.urlFull', 'structure.parentId', 'product.price'])
        .where('exchangeRecord.kind', '=', 'product')
        .where('exchangeRecord.externalId', '=', externalId)
        .executeTakeFirst()
    const lastRun = async () => {
      const run = await t.app.db.selectFrom('exchangeRun').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
      return { ...run, report: JSON.parse(run.report) as { skipped: { what: string; why: string }[] } }
    }
    /** The answers end in a 422 `failure` naming the item; the run failed and the log names it too. */
    const failedNaming = async (answers: Answer[], what: RegExp, why: RegExp) => {
      const last = answers.at(-1)!
      expect(last.status, last.body).toBe(422)
      expect(last.lines[0]).toBe('failure')
      expect(last.lines[1]).toMatch(what)
      const run = await lastRun()
      expect(run.status).toBe('failure')
      expect(run.message).toMatch(what)
      expect(run.report.skipped).toContainEqual(
        expect.objectContaining({ what: expect.stringMatching(what), why: expect.stringMatching(why) }),
      )
    }

    it('keeps the last of two goods with one Ид, applies the rest and names the duplicate', async () => {
      const answers = await client.exchange({
        'import.xml': importXml({
          products: [
            { id: 'dup-a', name: 'Товар до дубля' },
            { id: 'dup-1', name: 'Дубль первый' },
            { id: 'dup-b', name: 'Товар между дублями' },
            { id: 'dup-1', name: 'Дубль второй' },
            { id: 'dup-c', name: 'Товар после дубля' },
          ],
        }),
      })
      await failedNaming(answers, /Товар dup-1 «Дубль первый»/, /Ид повторяется/)
      expect((await product('dup-1'))!.title).toBe('Дубль второй')
      for (const id of ['dup-a', 'dup-b', 'dup-c']) expect(await product(id), id).toBeDefined()
    })

    it('puts the goods of groups nested past 10 levels in the deepest allowed section, naming the groups', async () => {
      const xml = importXml({
        groups: [{ id: 'placeholder', name: 'Заглушка' }],
        products: [{ id: 'deep-product', name: 'Товар в глубокой группе', groups: ['deep-20000'] }],
      })
        .toString('utf8')
        .replace('<Группы><Группа><Ид>placeholder</Ид><Наименование>Заглушка</Наименование></Группа></Группы>', () =>
          nestedGroups(20_000),
        )
      const answers = await client.exchange({ 'import.xml': Buffer.from(xml) })
      await failedNaming(answers, /Группа deep-11 «Уровень 11»/, /глубже 10 уровней/)
      const deep = (await product('deep-product'))!
      const section = await t.app.db
        .selectFrom('exchangeRecord')
        .select('structureId')
        .where('kind', '=', 'group')
        .where('externalId', '=', 'deep-10')
        .executeTakeFirstOrThrow()
      expect(deep.parentId).toBe(section.structureId)
      expect(deep.urlFull.length).toBeLessThan(1100)
      expect(
        await t.app.db.selectFrom('exchangeRecord').select('structureId').where('externalId', '=', 'deep-11').execute(),
      ).toEqual([])
      const page = await t.app.inject({ url: encodeURI(deep.urlFull), headers: { 'user-agent': 'Mozilla/5.0 test' } })
      expect(page.statusCode).toBe(200)
      expect(page.body.length).toBeLessThan(200_000)
    })

    it('skips offers whose price or quantity is not one the site takes, naming each, and applies the rest', async () => {
      await client.exchange({
        'import.xml': importXml({
          products: ['good', 'hex', 'huge', 'negative', 'exp', 'stock'].map((id) => ({ id: `price-${id}`, name: id })),
        }),
      })
      const raw: Record<string, string> = {
        '101.00': '0x10',
        '102.00': '3000000000',
        '103.00': '-5',
        '104.00': '1e308',
      }
      const xml = offersXml({
        priceTypes: PRICE_TYPES,
        offers: [
          { id: 'price-good', name: 'Хороший', prices: { 'pt-retail': 500 }, quantity: 2 },
          { id: 'price-hex', name: 'Шестнадцатеричный', prices: { 'pt-retail': 101 }, quantity: 1 },
          { id: 'price-huge', name: 'Огромный', prices: { 'pt-retail': 102 }, quantity: 1 },
          { id: 'price-negative', name: 'Отрицательный', prices: { 'pt-retail': 103 }, quantity: 1 },
          { id: 'price-exp', name: 'Экспонента', prices: { 'pt-retail': 104 }, quantity: 1 },
          { id: 'price-stock', name: 'Склад', prices: { 'pt-retail': 700 }, quantity: 99_999 },
        ],
      })
        .toString('utf8')
        .replace(
          /<ЦенаЗаЕдиницу>(10[1-4]\.00)<\/ЦенаЗаЕдиницу>/g,
          (_, price: string) => `<ЦенаЗаЕдиницу>${raw[price]}</ЦенаЗаЕдиницу>`,
        )
        .replace('<Количество>99999</Количество>', '<Количество>99999999999999999999</Количество>')
      const answers = await client.exchange({ 'offers.xml': Buffer.from(xml) })
      await failedNaming(answers, /Предложение price-hex «Шестнадцатеричный»/, /«0x10»/)
      const run = await lastRun()
      for (const [id, why] of [
        ['huge', /больше/],
        ['negative', /отрицательн/],
        ['exp', /«1e308»/],
        ['stock', /Количество/],
      ] as const) {
        expect(run.report.skipped).toContainEqual({
          what: expect.stringContaining(`price-${id}`),
          why: expect.stringMatching(why),
        })
        expect((await product(`price-${id}`))!.price, id).toBeNull()
      }
      expect((await product('price-good'))!.price).toBe(50_000)
    })

    it('skips an item the database refuses, naming it, and applies the items after it, every time', async () => {
      // The database refuses one title (a trigger: the store itself, not a stand-in for it).
      if (dialect.name === 'SQLite') {
        await sql`create trigger refuse_one before insert on structure when new.title = 'Сломанный товар'
          begin select raise(abort, 'refused by the test'); end`.execute(t.app.db)
      } else {
        await sql`create function refuse_one() returns trigger language plpgsql as $$
          begin if new.title = 'Сломанный товар' then raise exception 'refused by the test'; end if; return new; end $$`.execute(
          t.app.db,
        )
        await sql`create trigger refuse_one before insert on structure for each row execute function refuse_one()`.execute(
          t.app.db,
        )
      }
      const file = importXml({
        products: [
          { id: 'row-1', name: 'Товар до сломанного' },
          { id: 'row-2', name: 'Сломанный товар' },
          { id: 'row-3', name: 'Товар после сломанного' },
        ],
      })
      for (let attempt = 0; attempt < 2; attempt++) {
        const answers = await client.exchange({ 'import.xml': file })
        await failedNaming(answers, /Товар row-2 «Сломанный товар»/, /не записан/)
        expect(await product('row-1')).toBeDefined()
        expect(await product('row-2')).toBeUndefined()
        expect(await product('row-3')).toBeDefined()
      }
    })
  })
}
