// GET /api/admin/feeds, the back office's «Выгрузки», on both databases: the owner only; the Yandex
// feed's absolute URL while YANDEX_FEED is on and none while off; what Yandex Товары would refuse of
// the feed (offers without a brand, a picture or a description: the same offers the feed itself
// shows, counted, the first few named), none for the brand once the shop names a default one;
// IndexNow on or off, its waiting URLs, and each batch Yandex refused for good (403, 422) with its
// reason and time, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueUrls } from '../../server/catalogue/indexnow/indexnow-outbox'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { parseYml } from '../helpers/yml-rules'
import { bumpContentVersion } from '../../server/data/db'
import { startHttpReceiver, type HttpReceiver } from '../helpers/receivers'

const PUBLIC_URL = 'https://shop.example.ru'
const KEY = 'feeds-status-key-0123'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the feeds status on ${dialect.name}`, () => {
    const status = async (t: TestApp, headers: Record<string, string> = AUTH) =>
      t.app.inject({ url: '/api/admin/feeds', headers })

    describe('with the feed and IndexNow on', () => {
      let t: TestApp
      let yandex: HttpReceiver
      beforeAll(async () => {
        yandex = await startHttpReceiver()
        t = await dialect.build({
          ADMIN_TOKEN,
          YANDEX_FEED: 'true',
          INDEXNOW: 'on',
          INDEXNOW_KEY: KEY,
          INDEXNOW_URL: `${yandex.url}/indexnow`,
        })
        // Batches are sent by hand below, at the times the test names.
        await t.app.indexNow!.stop()
      })
      afterAll(async () => {
        await t?.close()
        await yandex?.close()
      })

      it('answers 401 without a session or token, and 403 with a wrong token', async () => {
        expect((await status(t, {})).statusCode).toBe(401)
        expect((await status(t, { authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(403)
      })

      it('gives the feed an absolute URL on PUBLIC_URL that serves the feed', async () => {
        const res = await status(t)
        expect(res.statusCode).toBe(200)
        expect(res.headers['cache-control']).toBe('no-store')
        const { yandexFeed, indexNow } = res.json().data
        expect(yandexFeed).toMatchObject({ enabled: true, url: `${PUBLIC_URL}/feeds/yandex.xml`, defaultVendor: null })
        expect(indexNow).toMatchObject({ enabled: true, keyUrl: `${PUBLIC_URL}/${KEY}.txt`, deadBatches: [] })
        const feed = await t.app.inject({ url: new URL(yandexFeed.url).pathname })
        expect(feed.statusCode).toBe(200)
        expect(feed.body.startsWith('<?xml')).toBe(true)
      })

      it('lists what Yandex Товары would refuse of the feed, counted and the first few named, as the feed shows them', async () => {
        const db = t.app.db
        // A product of the feed without a description and without any picture.
        const [bare] = parseYml((await t.app.inject({ url: '/feeds/yandex.xml' })).body).offers
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('product')
            .set({ description: '  ', image: null })
            .where('structureId', '=', Number(bare.id))
            .execute()
          await trx.deleteFrom('productImage').where('structureId', '=', Number(bare.id)).execute()
          await bumpContentVersion(trx)
        })
        const feed = parseYml((await t.app.inject({ url: '/feeds/yandex.xml' })).body)
        // Products, as the status counts them: a variant's offer is its product's (group_id, decision 043).
        const without = (field: string) =>
          [...new Set(feed.offers.filter((o) => !o.fields[field]?.[0]).map((o) => Number(o.groupId ?? o.id)))].sort(
            (a, b) => a - b,
          )
        const expected = { vendor: without('vendor'), picture: without('picture'), description: without('description') }
        // 40 of the demo's 45 offers have no brand (issue #36).
        expect(expected.vendor.length).toBeGreaterThan(10)
        expect(expected.picture).toContain(Number(bare.id))
        expect(expected.description).toContain(Number(bare.id))

        const { yandexFeed } = (await status(t)).json().data
        expect(yandexFeed.defaultVendor).toBeNull()
        expect(yandexFeed.offers).toBe(feed.offers.length)
        expect(yandexFeed.reasons.map((r: { reason: string }) => r.reason)).toEqual([
          'vendor',
          'picture',
          'description',
        ])
        for (const { reason, count, examples } of yandexFeed.reasons) {
          const ids = expected[reason as keyof typeof expected]
          expect(count, reason).toBe(ids.length)
          expect(examples.map((e: { id: number }) => e.id)).toEqual(ids.slice(0, 5))
          for (const example of examples) {
            const title = await db
              .selectFrom('structure')
              .select('title')
              .where('id', '=', example.id)
              .executeTakeFirstOrThrow()
            expect(example.title).toBe(title.title)
          }
        }
      })

      it('counts the waiting URLs and lists each refused batch with its reason and time, newest first', async () => {
        const first = new Date('2026-11-20T10:00:00.000Z')
        const second = new Date('2026-11-21T12:30:00.000Z')
        await enqueueUrls(t.app.db, [`${PUBLIC_URL}/a`, `${PUBLIC_URL}/b`], first)
        yandex.answers.push({ status: 403 })
        expect(await t.app.indexNow!.runOnce(first)).toBe(true)
        await enqueueUrls(t.app.db, [`${PUBLIC_URL}/c`], second)
        yandex.answers.push({ status: 422 })
        expect(await t.app.indexNow!.runOnce(second)).toBe(true)
        await enqueueUrls(t.app.db, [`${PUBLIC_URL}/waiting-1`, `${PUBLIC_URL}/waiting-2`])

        const { indexNow } = (await status(t)).json().data
        expect(indexNow).toMatchObject({ pending: 2, sent: 0, dead: 3 })
        expect(indexNow.deadBatches).toEqual([
          { reason: 'HTTP 422', at: second.toISOString(), urls: 1, example: `${PUBLIC_URL}/c` },
          { reason: 'HTTP 403', at: first.toISOString(), urls: 2, example: `${PUBLIC_URL}/a` },
        ])
      })
    })

    describe('with both off', () => {
      let t: TestApp
      beforeAll(async () => {
        t = await dialect.build({ ADMIN_TOKEN, YANDEX_FEED_VENDOR: 'Свой бренд' })
      })
      afterAll(async () => {
        await t?.close()
      })

      it('names no feed URL, still counts what Товары would refuse (no brand missing: the default), and says IndexNow is off', async () => {
        const res = await status(t)
        expect(res.statusCode).toBe(200)
        const { yandexFeed } = res.json().data
        expect(yandexFeed).toMatchObject({ enabled: false, url: null, defaultVendor: 'Свой бренд' })
        expect(yandexFeed.offers).toBeGreaterThan(10)
        expect(yandexFeed.reasons[0]).toEqual({ reason: 'vendor', count: 0, examples: [] })
        expect(res.json().data).toEqual({
          yandexFeed,
          indexNow: {
            enabled: false,
            keyUrl: null,
            pending: 0,
            sent: 0,
            dead: 0,
            lastError: null,
            deadBatches: [],
          },
        })
        expect((await t.app.inject({ url: '/feeds/yandex.xml' })).statusCode).toBe(404)
      })
    })
  })
}
