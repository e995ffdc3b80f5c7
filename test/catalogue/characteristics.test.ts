// «Характеристики» (issue 46 item 1, docs/decisions/042-characteristics-and-filters.md) on SQLite
// and PostgreSQL: 1C's Свойства arrive as characteristics with their raw names; the owner renames
// one (a split of the unit written into its name offered), hides another; the product page, its
// JSON-LD and the YML feed show the owner's name and unit, in the owner's order («Порядок»), and
// leave the hidden one out; a later 1C exchange and a price list keep writing the raw names, and
// the owner's choices hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { EXCHANGE_ENV, OneCClient, importXml, injectTransport, offersXml } from '../helpers/one-c'

const PROPERTIES = [
  { id: 'p-weight', name: 'Габарит_Вес' },
  { id: 'p-ozon', name: 'Код ОЗОН' },
  { id: 'p-power', name: 'Мощность, Вт' },
]

const IMPORT = importXml({
  groups: [{ id: 'g-drills', name: 'Дрели' }],
  properties: PROPERTIES,
  products: [
    {
      id: 'prod-drill',
      name: 'Дрель ударная ДУ-800',
      article: 'ДУ-800',
      vendor: 'Вихрь',
      description: 'Ударная дрель для бетона и кирпича.',
      groups: ['g-drills'],
      properties: { 'p-weight': '1,2', 'p-ozon': '149831117', 'p-power': '800' },
    },
  ],
})
const OFFERS = offersXml({
  priceTypes: [{ id: 'pt-retail', name: 'Розничная' }],
  offers: [{ id: 'prod-drill', prices: { 'pt-retail': 4990 }, quantity: 3 }],
})

/** The product page's characteristics table, a row at a time («name value unit»). */
function tableRows(html: string): string[] {
  const table = /<table class="properties__table">([\s\S]*?)<\/table>/.exec(decodeEntities(html))?.[1] ?? ''
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    m[1]
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
}

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]))
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`characteristics the owner manages on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient
    let drillUrl = ''
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV, YANDEX_FEED: 'true' }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: AUTH,
        payload: { enabled: true, priceType: '', oldPriceType: '', zeroStock: 'out_of_stock' },
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(() => t?.close())

    const exchange = async () => {
      const answers = await client.exchange({ 'import.xml': IMPORT, 'offers.xml': OFFERS })
      expect(answers.map((a) => a.lines[0])).toEqual(['success', 'success'])
    }
    const list = async () => {
      const res = await t.app.inject({ url: '/api/admin/characteristics', headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data as any[]
    }
    const byName = async (name: string) => (await list()).find((c) => c.name === name)
    const save = (id: number, change: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/characteristics/${id}`, headers: AUTH, payload: change })
    const page = async () => {
      const res = await t.app.inject({ url: drillUrl, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      expect(res.statusCode).toBe(200)
      return res.body
    }
    const feed = async () => decodeEntities((await t.app.inject({ url: '/feeds/yandex.xml' })).body)

    it('lists 1C’s properties with their raw names, and offers a split of a unit written into a name', async () => {
      await exchange()
      const row = await t.app.db
        .selectFrom('structure')
        .select('urlFull')
        .where('title', '=', 'Дрель ударная ДУ-800')
        .executeTakeFirstOrThrow()
      drillUrl = row.urlFull
      const weight = await byName('Габарит_Вес')
      expect(weight).toMatchObject({ title: 'Габарит_Вес', shown: true, filter: 'none', products: 1 })
      expect(weight.suggestion).toEqual({ title: 'Габарит вес', unit: '' })
      expect((await byName('Мощность, Вт')).suggestion).toEqual({ title: 'Мощность', unit: 'Вт' })
      expect((await byName('Код ОЗОН')).suggestion).toBeNull()
      // Before any choice the page shows them as they came.
      expect(decodeEntities(await page())).toContain('Код ОЗОН')
    })

    it('refuses an empty name and an unknown filter, and answers 404 for an unknown characteristic', async () => {
      const weight = await byName('Габарит_Вес')
      const bad = await save(weight.id, { title: ' ', shownUnit: '', shown: true, filter: 'chips', sort: 0 })
      expect(bad.statusCode).toBe(400)
      expect(Object.keys(bad.json().errors ?? bad.json().error?.errors ?? {}).sort()).toEqual(['filter', 'title'])
      const none = await save(999_999, { title: 'Х', shownUnit: '', shown: true, filter: 'none', sort: 0 })
      expect(none.statusCode).toBe(404)
      const anonymous = await t.app.inject({ url: '/api/admin/characteristics' })
      expect(anonymous.statusCode).toBe(401)
    })

    it('shows the owner’s names and units on the page, in JSON-LD and the feed, and leaves a hidden one out', async () => {
      const weight = await byName('Габарит_Вес')
      const ozon = await byName('Код ОЗОН')
      const power = await byName('Мощность, Вт')
      for (const [c, change] of [
        [weight, { title: 'Габарит вес', shownUnit: 'кг', shown: true, filter: 'range', sort: 1 }],
        [ozon, { title: 'Код ОЗОН', shownUnit: '', shown: false, filter: 'none', sort: 2 }],
        [power, { title: 'Мощность', shownUnit: 'Вт', shown: true, filter: 'range', sort: 0 }],
      ] as const) {
        const res = await save(c.id, change)
        expect(res.statusCode, res.body).toBe(200)
      }
      await expectOwnersChoices()
    })

    async function expectOwnersChoices() {
      const html = await page()
      const text = decodeEntities(html)
      expect(text).not.toContain('ОЗОН')
      expect(text).not.toContain('149831117')
      expect(text).not.toContain('Габарит_Вес')
      expect(text).toContain('Габарит вес')
      // «Мощность» (order 0) before «Габарит вес» (1), though 1C sent it last.
      expect(tableRows(html)).toEqual(['Мощность 800 Вт', 'Габарит вес 1,2 кг'])
      const product = jsonLd(html).find((x) => x['@type'] === 'Product')
      expect(product.additionalProperty).toEqual([
        { '@type': 'PropertyValue', name: 'Мощность', value: '800', unitText: 'Вт' },
        { '@type': 'PropertyValue', name: 'Габарит вес', value: '1,2', unitText: 'кг' },
      ])
      expect(await drillParams()).toEqual([
        '<param name="Мощность" unit="Вт">800</param>',
        '<param name="Габарит вес" unit="кг">1,2</param>',
      ])
      expect(await feed()).not.toContain('ОЗОН')
    }
    const drillParams = async () => {
      const offer = (await feed()).split('<offer ').find((o) => o.includes('<vendorCode>ДУ-800</vendorCode>'))
      return offer?.match(/<param [^>]*>[^<]*<\/param>/g)
    }

    it('lists the page’s characteristics in the owner’s order at once, an equal order as 1C sent them', async () => {
      const weight = await byName('Габарит_Вес')
      const power = await byName('Мощность, Вт')
      const put = (c: any, sort: number) => {
        const { title, shownUnit, shown, filter } = c
        return save(c.id, { title, shownUnit, shown, filter, sort })
      }
      expect(weight.sort).toBe(1)
      expect((await put(power, 1)).statusCode).toBe(200)
      // Both 1: 1C's order (Габарит_Вес, then Мощность).
      expect(tableRows(await page())).toEqual(['Габарит вес 1,2 кг', 'Мощность 800 Вт'])
      expect((await drillParams())?.[0]).toContain('Габарит вес')
      expect((await put(power, 0)).statusCode).toBe(200)
      expect(tableRows(await page())).toEqual(['Мощность 800 Вт', 'Габарит вес 1,2 кг'])
    })

    it('keeps the choices across a later 1C exchange', async () => {
      await exchange()
      await expectOwnersChoices()
      expect((await list()).filter((c) => c.name === 'Габарит_Вес')).toHaveLength(1)
    })

    it('keeps the choices across a price list that writes the characteristic again', async () => {
      const file = Buffer.from('Артикул;Габарит_Вес\nДУ-800;1,5\n')
      const body = (confirm?: string) =>
        multipartBody(confirm ? { confirm } : {}, [
          { name: 'file', filename: 'price.csv', contentType: 'application/octet-stream', bytes: file },
        ])
      const post = (path: string, b: ReturnType<typeof body>) =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/price-list/${path}`,
          headers: { ...AUTH, ...b.headers },
          payload: b.payload,
        })
      const preview = await post('preview', body())
      expect(preview.statusCode, preview.body).toBe(200)
      const applied = await post('apply', body(preview.json().data.confirm))
      expect(applied.statusCode, applied.body).toBe(200)
      const html = await page()
      const product = jsonLd(html).find((x) => x['@type'] === 'Product')
      expect(product.additionalProperty).toContainEqual({
        '@type': 'PropertyValue',
        name: 'Габарит вес',
        value: '1,5',
        unitText: 'кг',
      })
      expect(decodeEntities(html)).not.toContain('ОЗОН')
      const stored = await t.app.db
        .selectFrom('productProperty')
        .select(['name', 'numValue'])
        .where('name', '=', 'Габарит_Вес')
        .execute()
      expect(stored).toEqual([{ name: 'Габарит_Вес', numValue: 1.5 }])
    })
  })
}
