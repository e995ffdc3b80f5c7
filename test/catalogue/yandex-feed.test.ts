// /feeds/yandex.xml on both databases: off until YANDEX_FEED=true; then a YML feed that keeps every
// rule of the checker (test/helpers/yml-rules.ts) and a real XML parser reads back exactly: only
// public products with a price that are in stock or on order, escaped, the shop's default brand on
// offers without one, with JPEG pictures of at least 600 px named .jpg (the old URLs redirect);
// kept per content version, anew after a write, each encoding made once with its own ETag (304 only
// to the tag of the representation the request gets), never compressed per request.
import fs from 'node:fs'
import zlib from 'node:zlib'
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildApp } from '../../server/app'
import { tempDir, testConfig, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { parseYml, ymlProblems } from '../helpers/yml-rules'
import { bumpContentVersion } from '../../server/data/db'

const PUBLIC_URL = 'https://shop.example.ru'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the Yandex feed on ${dialect.name}`, () => {
    let t: TestApp
    const ids: Record<string, number> = {}
    beforeAll(async () => {
      t = await dialect.build({
        ADMIN_TOKEN,
        YANDEX_FEED: 'true',
        YANDEX_FEED_COMPANY: 'ООО «Техно & Мастер»',
        YANDEX_FEED_VENDOR: 'Техно & Мастер',
      })
      const db = t.app.db
      const idOf = async (article: string) =>
        (await db.selectFrom('product').select('structureId').where('article', '=', article).executeTakeFirstOrThrow())
          .structureId
      for (const article of ['ЭИ-1002', 'ЭИ-1003', 'ЭИ-1004', 'ЭИ-1005', 'ЭИ-1006', 'СТ-2001', 'СТ-2002', 'СТ-2003']) {
        ids[article] = await idOf(article)
      }
      // The states the assertions below rely on, whatever the demo shop gives these products.
      await db
        .updateTable('product')
        .set({ price: 7490, availability: 'in_stock' })
        .where('structureId', 'in', [ids['ЭИ-1002'], ids['СТ-2002']])
        .execute()
      await db
        .updateTable('product')
        .set({ price: 15990, availability: 'in_stock', oldPrice: null })
        .where('structureId', '=', ids['СТ-2003'])
        .execute()
      await db.updateTable('product').set({ price: 2_499_050 }).where('structureId', '=', ids['СТ-2001']).execute()
      await db.updateTable('structure').set({ published: 0 }).where('id', '=', ids['ЭИ-1003']).execute() // a draft
      await db.updateTable('structure').set({ status: 410 }).where('id', '=', ids['ЭИ-1004']).execute() // withdrawn
      await db.updateTable('product').set({ price: null }).where('structureId', '=', ids['ЭИ-1005']).execute()
      await db
        .updateTable('product')
        .set({ availability: 'out_of_stock' })
        .where('structureId', '=', ids['ЭИ-1006'])
        .execute()
      await db
        .updateTable('product')
        .set({ availability: 'on_order', oldPrice: 3_000_000, vendor: 'Husqvarna' })
        .where('structureId', '=', ids['СТ-2001'])
        .execute()
      await db.updateTable('product').set({ oldPrice: 100 }).where('structureId', '=', ids['СТ-2002']).execute()
      await db
        .updateTable('structure')
        .set({ title: 'Пила <b>"Мастер"</b> & сын\u0007 \'П\'' })
        .where('id', '=', ids['СТ-2003'])
        .execute()
      await db
        .insertInto('productProperty')
        .values([
          { structureId: ids['СТ-2003'], groupName: null, name: 'Вес', value: '3,5', unit: 'кг', sort: 0 },
          { structureId: ids['СТ-2003'], groupName: null, name: 'Цвет <&>', value: 'красный', unit: null, sort: 1 },
        ])
        .execute()
      await db.transaction().execute((trx) => bumpContentVersion(trx))
    })
    afterAll(async () => {
      await t?.close()
    })

    const get = (headers: Record<string, string> = {}) => t.app.inject({ url: '/feeds/yandex.xml', headers })

    it('keeps every rule of the YML checker and leaves out drafts, withdrawn, priceless and out-of-stock products', async () => {
      const res = await get()
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8')
      expect(ymlProblems(res.body, PUBLIC_URL)).toEqual([])
      const feed = parseYml(res.body)
      expect(feed.shop).toMatchObject({ name: 'ТехноМастер', company: 'ООО «Техно & Мастер»', url: `${PUBLIC_URL}/` })
      const offerIds = feed.offers.map((o) => Number(o.id))
      for (const gone of ['ЭИ-1003', 'ЭИ-1004', 'ЭИ-1005', 'ЭИ-1006']) expect(offerIds).not.toContain(ids[gone])
      expect(offerIds).toContain(ids['ЭИ-1002'])
      expect(feed.offers.length).toBeGreaterThan(10)
    })

    it('writes each offer from its product: on order as available="false", the old price only above the price, escaped text', async () => {
      const feed = parseYml((await get()).body)
      const offer = (article: string) => feed.offers.find((o) => o.id === String(ids[article]))!
      expect(offer('СТ-2001')).toMatchObject({ available: 'false' })
      expect(offer('СТ-2001').fields).toMatchObject({
        oldprice: ['30000'],
        // Kopecks as a decimal: 24 990,50 ₽
        price: ['24990.50'],
        vendor: ['Husqvarna'],
        vendorCode: ['СТ-2001'],
      })
      expect(offer('СТ-2002').fields.oldprice).toBeUndefined()
      expect(offer('ЭИ-1002').available).toBe('true')
      expect(offer('СТ-2003').fields.name).toEqual(['Пила "Мастер" & сын \'П\''])
      expect(offer('СТ-2003').params).toEqual([
        { name: 'Вес', unit: 'кг', value: '3,5' },
        { name: 'Цвет <&>', unit: undefined, value: 'красный' },
      ])
      const url = offer('ЭИ-1002').fields.url[0]
      expect(url).toBe(`${PUBLIC_URL}/structure/power-tools/screwdriver`)
      const category = feed.categories.find((c) => c.id === offer('ЭИ-1002').fields.categoryId[0])!
      expect(category.title).toBe('Электроинструмент')
      expect(feed.categories.find((c) => c.id === category.parentId)?.title).toBe('Каталог')
    })

    it("gives every offer a brand: its own, else the shop's default for its own goods", async () => {
      const feed = parseYml((await get()).body)
      const unbranded = await t.app.db
        .selectFrom('product')
        .select('structureId')
        .where((eb) => eb.or([eb('vendor', 'is', null), eb('vendor', '=', '')]))
        .execute()
      const withoutOwn = feed.offers.filter((o) => unbranded.some((p) => String(p.structureId) === o.id))
      expect(withoutOwn.length).toBeGreaterThan(10)
      for (const offer of withoutOwn) expect(offer.fields.vendor).toEqual(['Техно & Мастер'])
      expect(feed.offers.find((o) => o.id === String(ids['СТ-2001']))!.fields.vendor).toEqual(['Husqvarna'])
      expect(feed.offers.every((o) => o.fields.vendor?.[0])).toBe(true)
    })

    it('points each picture at a JPEG copy of at least 600 px named .jpg, made once; the old URL redirects there', async () => {
      const feed = parseYml((await get()).body)
      const picture = feed.offers.find((o) => o.id === String(ids['ЭИ-1002']))!.fields.picture[0]
      expect(picture).toMatch(new RegExp(`^${PUBLIC_URL}/feed-image/.+\\.jpg$`))
      const pictures = feed.offers.flatMap((o) => o.fields.picture ?? [])
      expect(pictures.every((p) => p.endsWith('.jpg'))).toBe(true)
      // A feed fetched before the suffix named the picture without it: one permanent step to the same one.
      const old = await t.app.inject({ url: picture.slice(PUBLIC_URL.length, -'.jpg'.length) })
      expect(old.statusCode).toBe(301)
      expect(old.headers.location).toBe(picture.slice(PUBLIC_URL.length))
      expect((await t.app.inject({ url: `${picture.slice(PUBLIC_URL.length)}.jpg` })).statusCode).toBe(404)
      const res = await t.app.inject({ url: picture.slice(PUBLIC_URL.length) })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('image/jpeg')
      const { width, height, format } = await sharp(res.rawPayload).metadata()
      expect(format).toBe('jpeg')
      expect(Math.min(width, height)).toBeGreaterThanOrEqual(600)
      expect(
        await t.app.mediaStorage.size(`feed/${decodeURI(picture.split('/feed-image/')[1]).replace('/', '-')}`),
      ).not.toBeNull()
    })

    it('keeps each encoding once, made for the first request, the same bytes after', async () => {
      await t.app.db.transaction().execute((trx) => bumpContentVersion(trx))
      const bodies: Record<string, Buffer> = {}
      for (const [encoding, accept] of [
        ['gzip', 'gzip'],
        ['br', 'br, gzip'],
        ['identity', 'identity'],
      ]) {
        const first = await get({ 'accept-encoding': accept })
        expect(first.statusCode).toBe(200)
        expect(first.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding)
        expect(first.headers.vary).toBe('Accept-Encoding')
        expect(first.headers['x-vitrina-cache']).toBe('miss')
        for (let i = 0; i < 3; i++) {
          const again = await get({ 'accept-encoding': accept })
          expect(again.headers['x-vitrina-cache']).toBe('hit')
          expect(again.headers.etag).toBe(first.headers.etag)
          expect(again.rawPayload.equals(first.rawPayload)).toBe(true)
        }
        bodies[encoding] = first.rawPayload
      }
      const text = bodies.identity.toString('utf8')
      expect(zlib.gunzipSync(bodies.gzip).toString('utf8')).toBe(text)
      expect(zlib.brotliDecompressSync(bodies.br).toString('utf8')).toBe(text)
      expect(bodies.br.length).toBeLessThan(bodies.gzip.length)
      expect(ymlProblems(text, PUBLIC_URL)).toEqual([])
    })

    it('gives each encoding its own ETag, and 304 only to the tag of the one the request gets', async () => {
      const gzip = await get({ 'accept-encoding': 'gzip' })
      const br = await get({ 'accept-encoding': 'br' })
      const plain = await get()
      const version = /^"yml-([\d.]+)"$/.exec(plain.headers.etag as string)![1]
      expect(gzip.headers.etag).toBe(`"yml-${version}-gz"`)
      expect(br.headers.etag).toBe(`"yml-${version}-br"`)
      const tags = {
        gzip: gzip.headers.etag as string,
        br: br.headers.etag as string,
        plain: plain.headers.etag as string,
      }

      // The brotli body's tag on a request that gets gzip is not a match: the client holds other bytes.
      const other = await get({ 'accept-encoding': 'gzip', 'if-none-match': tags.br })
      expect(other.statusCode).toBe(200)
      expect(other.headers['content-encoding']).toBe('gzip')
      expect(other.rawPayload.equals(gzip.rawPayload)).toBe(true)
      expect((await get({ 'if-none-match': tags.gzip })).statusCode).toBe(200)
      expect((await get({ 'accept-encoding': 'br', 'if-none-match': tags.plain })).statusCode).toBe(200)

      for (const [accept, tag] of [
        ['gzip', tags.gzip],
        ['br, gzip', tags.br],
        ['identity', tags.plain],
        ['gzip', `W/${tags.gzip}`],
        ['br', `"other", ${tags.br}`],
        ['br', '*'],
      ]) {
        const res = await get({ 'accept-encoding': accept, 'if-none-match': tag })
        expect(res.statusCode, `${accept} with ${tag}`).toBe(304)
        expect(res.rawPayload.length).toBe(0)
        expect(res.headers.etag).toBe(accept === 'identity' ? tags.plain : accept === 'gzip' ? tags.gzip : tags.br)
      }
    })

    it('answers HEAD with the length of the representation it would send, and a range with the whole feed', async () => {
      const br = await get({ 'accept-encoding': 'br' })
      const head = await t.app.inject({
        method: 'HEAD',
        url: '/feeds/yandex.xml',
        headers: { 'accept-encoding': 'br' },
      })
      expect(head.statusCode).toBe(200)
      expect(head.headers['content-encoding']).toBe('br')
      expect(head.headers.etag).toBe(br.headers.etag)
      expect(Number(head.headers['content-length'])).toBe(br.rawPayload.length)
      expect(head.rawPayload.length).toBe(0)
      // Ranges of the feed are not served: the whole representation, never a slice of another one.
      const ranged = await get({ 'accept-encoding': 'gzip', range: 'bytes=0-99' })
      expect(ranged.statusCode).toBe(200)
      expect(ranged.headers['content-range']).toBeUndefined()
      expect(zlib.gunzipSync(ranged.rawPayload).toString('utf8').startsWith('<?xml')).toBe(true)
    })

    it('answers 304 to its ETag, gzip to who accepts it, and a new feed after a write', async () => {
      const first = await get({ 'accept-encoding': 'gzip' })
      expect(first.headers['content-encoding']).toBe('gzip')
      expect(first.headers.etag).toMatch(/^"yml-[\d.]+-gz"$/)
      expect(first.headers['last-modified']).toBeTruthy()
      const plain = zlib.gunzipSync(first.rawPayload).toString('utf8')
      expect(plain).toBe((await get()).body.replace(/date="[^"]+"/, plain.match(/date="[^"]+"/)![0]))
      expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag as string })).statusCode).toBe(
        304,
      )

      await t.app.db.transaction().execute(async (trx) => {
        await trx.updateTable('product').set({ price: 777_700 }).where('structureId', '=', ids['ЭИ-1002']).execute()
        await bumpContentVersion(trx)
      })
      const after = await get({ 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag as string })
      expect(after.statusCode).toBe(200)
      expect(after.headers.etag).not.toBe(first.headers.etag)
      const offer = parseYml(zlib.gunzipSync(after.rawPayload).toString('utf8')).offers.find(
        (o) => o.id === String(ids['ЭИ-1002']),
      )!
      expect(offer.fields.price).toEqual(['7777'])
    })
  })
}

describe('the Yandex feed switched off', () => {
  it('is not there unless YANDEX_FEED=true', async () => {
    const t = await DIALECTS[0].build()
    try {
      expect((await t.app.inject({ url: '/feeds/yandex.xml' })).statusCode).toBe(404)
    } finally {
      await t.close()
    }
  })
})

/** SQLite's own error for a lock held past the busy timeout, thrown by every query while armed. */
class BusyDatabase implements KyselyPlugin {
  armed = false
  transformQuery<T>(args: { node: T }): T {
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.armed) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    return args.result
  }
}

describe('the Yandex feed while the database is away', () => {
  it('serves the copy it kept, or 503 with Retry-After when it has none', async () => {
    const busy = new BusyDatabase()
    const dir = tempDir()
    const app = await buildApp(testConfig(dir, { YANDEX_FEED: 'true' }), { databasePlugins: [busy] })
    await app.ready()
    try {
      busy.armed = true
      const none = await app.inject({ url: '/feeds/yandex.xml' })
      expect(none.statusCode).toBe(503)
      expect(none.headers['retry-after']).toBe('30')
      busy.armed = false
      const fresh = await app.inject({ url: '/feeds/yandex.xml' })
      expect(fresh.statusCode).toBe(200)
      await app.db.transaction().execute((trx) => bumpContentVersion(trx))
      busy.armed = true
      const kept = await app.inject({ url: '/feeds/yandex.xml' })
      expect(kept.statusCode).toBe(200)
      expect(kept.body).toBe(fresh.body)
    } finally {
      busy.armed = false
      await app.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
