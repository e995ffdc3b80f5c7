// What 1C overwrites (issue 46, item 4; docs/decisions/044-onec-owned-fields.md), on SQLite and
// PostgreSQL, through the protocol as 1C drives it: with «Цена» switched off in «Настройки», an
// exchange keeps the price the owner set in «Товары» and still updates the stock; a product 1C
// creates still gets its price; the choice holds in a new process; «Товары» and the editor's call
// mark a product from 1C with the fields the exchange overwrites, and the price action's preview
// counts the products whose new price 1C will set back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { readConfig } from '../../server/config/config'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { EXCHANGE_ENV, OneCClient, enableExchange, importXml, injectTransport, offersXml } from '../helpers/one-c'
import type { ProductRow } from '../../src/admin/admin-products'

const PRICE_TYPES = [{ id: 'pt-retail', name: 'Розничная' }]

const goods = (title = 'Дрель ударная ДУ-800', description = 'Для бетона.') =>
  importXml({
    products: [
      { id: 'prod-drill', name: title, article: 'ДУ-800', description },
      { id: 'prod-saw', name: 'Пила циркулярная ПЦ-1500', article: 'ПЦ-1500' },
    ],
  })

const offers = (drill: { price: number; quantity: number }, saw = { price: 6900, quantity: 2 }) =>
  offersXml({
    priceTypes: PRICE_TYPES,
    offers: [
      { id: 'prod-drill', prices: { 'pt-retail': drill.price }, quantity: drill.quantity },
      { id: 'prod-saw', prices: { 'pt-retail': saw.price }, quantity: saw.quantity },
    ],
  })

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the fields 1C overwrites, on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await t?.close()
    })

    const saveSettings = (payload: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: AUTH, payload })
    const product = async (externalId: string) =>
      t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'structure.title', 'product.price', 'product.availability', 'product.description'])
        .where('exchangeRecord.externalId', '=', externalId)
        .executeTakeFirstOrThrow()
    const exchange = async (files: Record<string, Buffer>) => {
      const answers = await client.exchange(files)
      expect(answers.map((a) => a.lines[0])).toEqual(Object.keys(files).map(() => 'success'))
    }

    it('refuses a value that is not a switch, in Russian, and changes nothing', async () => {
      const res = await saveSettings({ 'exchange.overwrite.price': 'maybe' })
      expect(res.statusCode).toBe(400)
      expect(res.json().errors['exchange.overwrite.price']).toBe('Ожидается «да» или «нет»')
      const view = await t.app.inject({ url: '/api/admin/settings', headers: AUTH })
      expect(view.json().data.values['exchange.overwrite.price']).toBe('true')
    })

    it('with «Цена» off, a product 1C creates still gets its price and stock', async () => {
      expect((await saveSettings({ 'exchange.overwrite.price': 'false' })).statusCode).toBe(200)
      expect(t.app.settings.current().exchangeOverwrite).toEqual(['stock', 'title', 'description', 'images'])
      await exchange({ 'import.xml': goods(), 'offers.xml': offers({ price: 4990, quantity: 3 }) })
      expect(await product('prod-drill')).toMatchObject({ price: 499000, availability: 'in_stock' })
      expect(await product('prod-saw')).toMatchObject({ price: 690000, availability: 'in_stock' })
    })

    it('keeps the price set in «Товары» at the next exchange and still updates the stock', async () => {
      const drill = await product('prod-drill')
      const edit = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/products/${drill.id}`,
        headers: AUTH,
        payload: { price: 3999.9 },
      })
      expect(edit.statusCode, edit.body).toBe(200)
      await exchange({
        'import.xml': goods('Дрель ударная ДУ-800М', 'Для бетона и кирпича.'),
        'offers.xml': offers({ price: 5100, quantity: 0 }, { price: 7000, quantity: 0 }),
      })
      // The title and the description are still 1C's; the price is the owner's; the stock is 1C's.
      expect(await product('prod-drill')).toMatchObject({
        title: 'Дрель ударная ДУ-800М',
        description: 'Для бетона и кирпича.',
        price: 399990,
        availability: 'out_of_stock',
      })
      expect(await product('prod-saw')).toMatchObject({ price: 690000, availability: 'out_of_stock' })
    })

    it('with «Название» and «Описание» off too, an update keeps the site’s title and description', async () => {
      const saved = await saveSettings({
        'exchange.overwrite.title': 'false',
        'exchange.overwrite.description': 'false',
      })
      expect(saved.statusCode).toBe(200)
      await exchange({ 'import.xml': goods('Дрель из 1С', 'Описание из 1С.') })
      expect(await product('prod-drill')).toMatchObject({
        title: 'Дрель ударная ДУ-800М',
        description: 'Для бетона и кирпича.',
      })
      expect((await saveSettings({ 'exchange.overwrite.title': 'true' })).statusCode).toBe(200)
    })

    it('keeps the choice in a new process reading the same database', async () => {
      const again = await buildApp(t.config, { directRender: true })
      try {
        await again.ready()
        expect(again.settings.current().exchangeOverwrite).toEqual(['stock', 'title', 'images'])
        const view = await again.inject({ url: '/api/admin/settings', headers: AUTH })
        expect(view.json().data.values).toMatchObject({
          'exchange.overwrite.price': 'false',
          'exchange.overwrite.stock': 'true',
          'exchange.overwrite.description': 'false',
        })
      } finally {
        await again.close()
      }
    })

    it('marks a product from 1C in «Товары» and for the editor with the fields the exchange overwrites', async () => {
      const list = await t.app.inject({ url: '/api/admin/products?q=%D0%94%D1%80%D0%B5%D0%BB%D1%8C', headers: AUTH })
      expect(list.statusCode).toBe(200)
      const rows = list.json().data as ProductRow[]
      const drill = rows.find((row) => row.article === 'ДУ-800')
      expect(drill?.oneC).toEqual(['stock', 'title', 'images'])
      // The demo shop's drills are the site's own.
      expect(rows.filter((row) => row.article !== 'ДУ-800').every((row) => row.oneC === null)).toBe(true)
      expect(rows.length).toBeGreaterThan(1)

      const mark = await t.app.inject({ url: `/api/admin/products/${drill!.id}/one-c`, headers: AUTH })
      expect(mark.json()).toEqual({ data: { oneC: ['stock', 'title', 'images'], variants: 0 } })
      const own = rows.find((row) => row.oneC === null)!
      const ownMark = await t.app.inject({ url: `/api/admin/products/${own.id}/one-c`, headers: AUTH })
      expect(ownMark.json()).toEqual({ data: { oneC: null, variants: 0 } })
      const bad = await t.app.inject({ url: '/api/admin/products/abc/one-c', headers: AUTH })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error.message).toBe('Неверный id')
      expect((await t.app.inject({ url: `/api/admin/products/${drill!.id}/one-c` })).statusCode).toBe(401)
    })

    it('counts in an action’s preview the chosen products whose field 1C sets back', async () => {
      const ids = [(await product('prod-drill')).id, (await product('prod-saw')).id]
      const preview = (action: object) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/products/actions',
          headers: AUTH,
          payload: { operation: 'preview-only', ids, action, preview: true },
        })
      // «Цена» is off: a price action is the owner's to keep.
      expect((await preview({ kind: 'price', percent: 10, keepOldPrice: false })).json().data).toEqual({
        changes: 2,
        oneC: 0,
      })
      const stock = await preview({ kind: 'availability', availability: 'in_stock' })
      expect(stock.json().data).toEqual({ changes: 2, oneC: 2 })
      expect((await saveSettings({ 'exchange.overwrite.price': 'true' })).statusCode).toBe(200)
      expect((await preview({ kind: 'price', amount: 100, keepOldPrice: false })).json().data).toEqual({
        changes: 2,
        oneC: 2,
      })
    })
  })
}

describe('EXCHANGE_1C_OVERWRITE', () => {
  it('shows the five switches as the variable sets them, read-only, and refuses a change', async () => {
    const t = await buildTestApp({ ADMIN_TOKEN, EXCHANGE_1C_OVERWRITE: 'stock' })
    try {
      expect(t.app.settings.current().exchangeOverwrite).toEqual(['stock'])
      const view = (await t.app.inject({ url: '/api/admin/settings', headers: AUTH })).json().data
      expect(view.values).toMatchObject({ 'exchange.overwrite.price': 'false', 'exchange.overwrite.stock': 'true' })
      expect(view.fromEnv['exchange.overwrite.title']).toBe('EXCHANGE_1C_OVERWRITE')
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: AUTH,
        payload: { 'exchange.overwrite.price': 'true' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().errors['exchange.overwrite.price']).toBe(
        'Задано на сервере (EXCHANGE_1C_OVERWRITE): здесь не меняется',
      )
    } finally {
      await t.close()
    }
  })

  it('sets the fields in place of the owner’s choice, and a wrong name stops the start', async () => {
    const env = { DATABASE_URL: 'file:/tmp/unused.db' }
    expect(readConfig({ ...env, EXCHANGE_1C_OVERWRITE: 'stock, price' }).exchange1cOverwrite).toEqual([
      'price',
      'stock',
    ])
    expect(readConfig({ ...env, EXCHANGE_1C_OVERWRITE: 'none' }).exchange1cOverwrite).toEqual([])
    expect(() => readConfig({ ...env, EXCHANGE_1C_OVERWRITE: 'price,cost' })).toThrow(/EXCHANGE_1C_OVERWRITE/)
  })
})
