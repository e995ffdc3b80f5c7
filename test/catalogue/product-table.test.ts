// «Товары»'s API (issue 33), on SQLite and PostgreSQL: pages by keyset in any sort cover every
// product once; the filters and the search narrow them; an edit in place shows on the public page at
// once, and a refused one changes nothing; actions on «все по фильтру» go in batches through the
// write door — a section's prices raised by 5 % are the new prices on the product pages, in search
// and in the feed, products without a photo hidden are gone from the site — and each action is one
// entry of the audit log with how many it changed.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { uploadPriceList } from '../helpers/multipart'

interface Row {
  id: number
  title: string
  urlFull: string
  price: number | null
  image: string | null
  state: string
  sectionId: number
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Товары» on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, YANDEX_FEED: 'true' })
      // Three products from a price list: none has a photo yet.
      const csv = Buffer.from(
        'Артикул;Наименование;Цена;Раздел\r\nБФ-1;Лобзик без фото;3100;Электроинструмент\r\nБФ-2;Рубанок без фото;4200;Электроинструмент\r\nБФ-3;Фреза без фото;;Электроинструмент\r\n',
      )
      const preview = await uploadPriceList(t.app, AUTH, csv)
      const applied = await uploadPriceList(t.app, AUTH, csv, preview.json().data.confirm)
      expect(applied.json().data.created).toBe(3)
    })
    afterAll(async () => {
      await t?.close()
    })

    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: AUTH })
      return { status: res.statusCode, body: res.json() }
    }
    const all = async (query: string) => {
      const rows: Row[] = []
      let after: string | null = null
      for (let i = 0; i < 100; i++) {
        const { status, body } = await get(`/api/admin/products?pageSize=25&${query}${after ? `&after=${after}` : ''}`)
        expect(status, JSON.stringify(body)).toBe(200)
        rows.push(...body.data)
        after = body.next
        if (!after) return rows
      }
      throw new Error('too many pages')
    }
    const act = async (ids: number[], action: Record<string, unknown>, operation = randomUUID()) => {
      let changed = 0
      for (let i = 0; i < ids.length; i += 200) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/products/actions',
          headers: AUTH,
          payload: { operation, ids: ids.slice(i, i + 200), action },
        })
        expect(res.statusCode, res.body).toBe(200)
        changed += res.json().data.changed
      }
      return changed
    }
    const page = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      return { status: res.statusCode, text: decodeEntities(res.body) }
    }
    const productCount = async () => (await t.app.db.selectFrom('product').select('structureId').execute()).length

    it('pages every product once by keyset, in any sort and direction', async () => {
      const total = await productCount()
      for (const [sort, dir] of [
        ['price', 'asc'],
        ['price', 'desc'],
        ['title', 'asc'],
        ['section', 'desc'],
        ['updatedAt', 'desc'],
      ]) {
        const rows = await all(`sort=${sort}&dir=${dir}`)
        expect(new Set(rows.map((r) => r.id)).size, `${sort} ${dir}`).toBe(total)
        expect(rows).toHaveLength(total)
        if (sort === 'price') {
          const prices = rows.map((r) => r.price ?? -1)
          const sorted = [...prices].sort((a, b) => (dir === 'asc' ? a - b : b - a))
          expect(prices).toEqual(sorted)
        }
      }
      const first = await get('/api/admin/products?pageSize=25')
      expect(first.body.total).toBe(total)
    })

    it('filters by photo, price, section with its subsections and the search', async () => {
      const noPhoto = await all('noPhoto=1')
      // Ours, and the demo shop's heat gun (its placeholder shows on the site).
      expect(noPhoto.map((r) => r.title).sort()).toEqual([
        'Лобзик без фото',
        'Рубанок без фото',
        'Фен строительный 2000 Вт',
        'Фреза без фото',
      ])
      const noPrice = await all('noPrice=1')
      expect(noPrice.map((r) => r.title)).toContain('Фреза без фото')
      expect(noPrice.every((r) => r.price === null)).toBe(true)
      expect(noPhoto.every((r) => r.image === null)).toBe(true)
      const catalogue = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', '/structure/')
        .executeTakeFirstOrThrow()
      expect(await all(`section=${catalogue.id}`)).toHaveLength(await productCount())
      const found = await all(`q=${encodeURIComponent('шуруповёрт')}`)
      expect(found.map((r) => r.title)).toContain('Шуруповёрт аккумуляторный 18 В')
      expect((await all(`q=${encodeURIComponent('ЭИ 1002')}`)).map((r) => r.title)).toContain(
        'Шуруповёрт аккумуляторный 18 В',
      )
      const wrong = await get('/api/admin/products?sort=evil')
      expect(wrong.status).toBe(400)
      expect(wrong.body.errors.sort).toBe('Неизвестная сортировка')
      expect((await t.app.inject({ url: '/api/admin/products' })).statusCode).toBe(401)
    })

    it('an edit in place shows at once; a refused one changes nothing', async () => {
      const [screwdriver] = await all(`q=${encodeURIComponent('ЭИ-1002')}`)
      const patch = (payload: object) =>
        t.app.inject({ method: 'PATCH', url: `/api/admin/products/${screwdriver.id}`, headers: AUTH, payload })
      expect((await patch({ price: 8100 })).statusCode).toBe(200)
      expect((await page(screwdriver.urlFull)).text).toContain(formatMoney(810000))
      const refused = await patch({ oldPrice: 5000 })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().errors.oldPrice).toMatch(/Старая цена должна быть больше цены/)
      const stored = await t.app.db
        .selectFrom('product')
        .select(['price', 'oldPrice'])
        .where('structureId', '=', screwdriver.id)
        .executeTakeFirstOrThrow()
      expect(stored).toEqual({ price: 810000, oldPrice: null })
      // Kopecks are kept and shown; a third decimal is refused with a field error.
      expect((await patch({ price: 8099.9 })).statusCode).toBe(200)
      expect((await page(screwdriver.urlFull)).text).toContain(formatMoney(809990))
      const precise = await patch({ price: 8099.999 })
      expect(precise.statusCode).toBe(400)
      expect(precise.json().errors.price).toMatch(/не более 2 знаков после запятой/)
    })

    it('raises a section’s prices by 5 %: product pages, search and the feed show the new prices; one audit entry', async () => {
      const section = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', '/structure/power-tools/')
        .executeTakeFirstOrThrow()
      const { body } = await get(`/api/admin/products/ids?section=${section.id}`)
      const before = await all(`section=${section.id}`)
      const operation = randomUUID()
      const changed = await act(body.data.ids, { kind: 'price', percent: 5, keepOldPrice: true }, operation)
      const priced = before.filter((r) => r.price !== null)
      expect(changed).toBe(priced.length)
      const sample = priced[0]
      const raised = Math.round(sample.price! * 1.05)
      expect((await page(sample.urlFull)).text).toContain(formatMoney(raised * 100))
      expect((await page(`/poisk?q=${encodeURIComponent(sample.title)}`)).text).toContain(formatMoney(raised * 100))
      const feed = await t.app.inject({ url: '/feeds/yandex.xml' })
      expect(feed.body).toContain(`<price>${raised}</price>`)
      const audit = (await get('/api/admin/products/audit')).body.data
      expect(audit[0]).toMatchObject({
        who: 'токен',
        action: 'Изменить цену: +5 %, до рубля, старая цена — прежняя',
        count: changed,
      })
    })

    it('hides every product without a photo: gone from the site', async () => {
      const { body } = await get('/api/admin/products/ids?noPhoto=1')
      const rows = await all('noPhoto=1')
      // Ours and the demo shop's heat gun.
      expect(rows).toHaveLength(4)
      expect(await act(body.data.ids, { kind: 'hide' })).toBe(4)
      for (const row of rows) expect((await page(row.urlFull)).status).toBe(404)
      expect((await all('noPhoto=1&state=draft')).length).toBe(rows.length)
    })
  })
}
