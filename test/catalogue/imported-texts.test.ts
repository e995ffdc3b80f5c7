// Values from outside checked like the editor's (issue 44, item 5), on SQLite and PostgreSQL: names
// and texts from 1C and from the price list carrying control, NEL, line-separator and bidi
// characters arrive cleaned, so the editor saves the record back unchanged (PATCH /api/structure
// with what GET gave); a price-list row whose price is negative, not a decimal or past the maximum
// is refused with a Russian reason, its line and артикул, and the other rows apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { hasForbiddenCharacters } from '../../src/validation/plain-text'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { EXCHANGE_ENV, OneCClient, importXml, injectTransport, offersXml } from '../helpers/one-c'

const SELECT = {
  id: true,
  title: true,
  product: { select: { article: true, vendor: true, description: true } },
  properties: { select: { name: true, value: true, unit: true, groupName: true } },
}

/** Every text of a record as one list, to look for a forbidden character. */
const textsOf = (record: any): string[] =>
  [
    record.title,
    record.product.article,
    record.product.vendor,
    ...record.properties.flatMap((p: any) => [p.name, p.value, p.unit]),
  ].filter((text): text is string => typeof text === 'string')

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`texts and prices from outside on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: AUTH,
        payload: { enabled: true, priceType: 'Розничная', oldPriceType: '', zeroStock: 'out_of_stock' },
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(async () => {
      await t?.close()
    })

    const idOf = async (article: string) =>
      (
        await t.app.db
          .selectFrom('product')
          .select('structureId')
          .where('article', '=', article)
          .executeTakeFirstOrThrow()
      ).structureId
    const read = async (id: number) => {
      const query = { where: { id }, select: SELECT }
      const res = await t.app.inject({ url: `/api/structure?${stringifyQuery({ query })}`, headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data
    }
    /** The editor saves the record with the values it read: accepted, and nothing changes. */
    async function savedUnchanged(id: number) {
      const record = await read(id)
      for (const text of textsOf(record)) expect(hasForbiddenCharacters(text, 'single-line'), text).toBe(false)
      if (record.product.description !== null) {
        expect(hasForbiddenCharacters(record.product.description, 'multi-line')).toBe(false)
      }
      const res = await sendRecord(t.app, AUTH, 'PATCH', '/api/structure', {
        id,
        title: record.title,
        product: record.product,
        properties: record.properties,
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(await read(id)).toEqual(record)
      return record
    }

    it('cleans what 1C sends so that the editor saves it unchanged', async () => {
      const client = new OneCClient(injectTransport(t.app))
      const answers = await client.exchange({
        'import.xml': importXml({
          groups: [{ id: 'g-1', name: 'Дрели\u202e\u0085' }],
          properties: [
            { id: 'p-power', name: 'Мощ\u202eность\u0085' },
            { id: 'p-color', name: 'Цвет', values: { 'v-red': 'Крас\u2066ный\u2069' } },
          ],
          products: [
            {
              id: 'prod-1',
              name: 'Дрель\u202e ударная\u2028ДУ-900\t',
              article: '\u2066ДУ-900\u2069',
              description: 'Строка 1\u2028Строка 2\u0085\u202dконец',
              vendor: 'Вихрь\u202c',
              groups: ['g-1'],
              properties: { 'p-power': '900\u2029Вт', 'p-color': 'v-red' },
            },
          ],
        }),
        'offers.xml': offersXml({
          priceTypes: [{ id: 'pt-retail', name: 'Розничная' }],
          offers: [{ id: 'prod-1', prices: { 'pt-retail': 4990 }, quantity: 2 }],
        }),
      })
      for (const answer of answers) expect(answer.lines[0], answer.body).toBe('success')

      const id = await idOf('ДУ-900')
      const record = await savedUnchanged(id)
      expect(record).toMatchObject({
        title: 'Дрель ударная ДУ-900',
        product: { article: 'ДУ-900', vendor: 'Вихрь', description: 'Строка 1\nСтрока 2\nконец' },
      })
      expect(record.properties).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Мощность', value: '900 Вт' }),
          expect.objectContaining({ name: 'Цвет', value: 'Красный' }),
        ]),
      )
      const section = await t.app.db
        .selectFrom('structure')
        .innerJoin('exchangeRecord', 'exchangeRecord.structureId', 'structure.id')
        .select(['structure.id', 'structure.title'])
        .where('exchangeRecord.externalId', '=', 'g-1')
        .executeTakeFirstOrThrow()
      expect(section.title).toBe('Дрели')
      const saved = await sendRecord(t.app, AUTH, 'PATCH', '/api/structure', { id: section.id, title: section.title })
      expect(saved.statusCode, saved.body).toBe(200)
    })

    it('cleans the price list the same way, refuses bad prices by line and артикул, and applies the rest', async () => {
      const lines = [
        'Артикул;Наименование;Цена;Старая цена;Раздел;Бренд;Цвет',
        '\u202eПЛ-1\u202c;"Пила\u0001 цепная\u2028ПЛ-1\r\nсадовая";1500;;Дрели;Бренд\u0085;кр\u2066асный',
        'ПЛ-2;Пила 2;-5;;Дрели;;',
        'ПЛ-3;Пила 3;0x10;;Дрели;;',
        'ПЛ-4;Пила 4;1e308;;Дрели;;',
        'ПЛ-5;Пила 5;Infinity;;Дрели;;',
        'ПЛ-6;Пила 6;2147483648;;Дрели;;',
        'ПЛ-7;Пила 7;100;-1;Дрели;;',
        'ПЛ-8;Пила 8;2 147 483 647;;Дрели;;',
      ]
      const file = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`)
      const preview = await uploadPriceList(t.app, AUTH, file)
      expect(preview.statusCode, preview.body).toBe(200)
      const data = preview.json().data
      expect(data.refused).toEqual([
        { number: 3, article: 'ПЛ-2', reason: 'Цена: «-5» — отрицательная цена' },
        { number: 4, article: 'ПЛ-3', reason: 'Цена: «0x10» — не число' },
        { number: 5, article: 'ПЛ-4', reason: 'Цена: «1e308» — не число' },
        { number: 6, article: 'ПЛ-5', reason: 'Цена: «Infinity» — не число' },
        { number: 7, article: 'ПЛ-6', reason: 'Цена: «2147483648» — больше 2 147 483 647 ₽' },
        { number: 8, article: 'ПЛ-7', reason: 'Старая цена: «-1» — отрицательная цена' },
      ])
      expect(data).toMatchObject({ created: 2, updated: 0 })

      const applied = await uploadPriceList(t.app, AUTH, file, data.confirm)
      expect(applied.statusCode, applied.body).toBe(200)
      const record = await savedUnchanged(await idOf('ПЛ-1'))
      expect(record).toMatchObject({ title: 'Пила цепная ПЛ-1 садовая', product: { article: 'ПЛ-1', vendor: 'Бренд' } })
      expect(record.properties).toEqual([expect.objectContaining({ name: 'Цвет', value: 'красный' })])
      const top = await t.app.db
        .selectFrom('product')
        .select('price')
        .where('article', '=', 'ПЛ-8')
        .executeTakeFirstOrThrow()
      // The largest price, to the kopeck, on both databases (PostgreSQL's column is a bigint).
      expect(top.price).toBe(214_748_364_700)
      await savedUnchanged(await idOf('ПЛ-8'))
    })
  })
}
