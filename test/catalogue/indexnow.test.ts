// IndexNow on both databases, with a local HTTP server standing in for Yandex: the key file, the
// URLs a price list or a write changed sent once in one batch, 10,001 URLs in two requests, 429
// then 200, 403 dead, and two processes on one database that never send the same batch twice.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { enqueueUrls } from '../../server/catalogue/indexnow/indexnow-outbox'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { buildTestApp, tempDir, testConfig, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody, uploadPriceList } from '../helpers/multipart'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'

const KEY = 'test-indexnow-key-0123'
const PUBLIC_URL = 'https://shop.example.ru'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`IndexNow on ${dialect.name}`, () => {
    let t: TestApp
    let yandex: HttpReceiver
    beforeAll(async () => {
      yandex = await startHttpReceiver()
      t = await dialect.build({
        ADMIN_TOKEN,
        INDEXNOW: 'on',
        INDEXNOW_KEY: KEY,
        INDEXNOW_URL: `${yandex.url}/indexnow`,
      })
    })
    afterAll(async () => {
      await t?.close()
      await yandex?.close()
    })
    afterEach(() => {
      yandex.requests.length = 0
      yandex.answers.length = 0
    })

    const batches = () =>
      yandex.requests.map(
        (r) => JSON.parse(r.body) as { host: string; key: string; keyLocation: string; urlList: string[] },
      )
    const statuses = async () =>
      (await t.app.db.selectFrom('indexNowUrl').select(['url', 'status']).execute()).reduce<Record<string, number>>(
        (acc, row) => ({ ...acc, [row.status]: (acc[row.status] ?? 0) + 1 }),
        {},
      )

    it('serves its key file as the protocol asks', async () => {
      const res = await t.app.inject({ url: `/${KEY}.txt` })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.body).toBe(KEY)
    })

    it('sends the URLs a price list changed once, in one batch, with their section', async () => {
      const file = Buffer.from('Артикул;Цена\nЭИ-1002;7000\nЭИ-1003;5000\nСТ-2001;20000\n')
      const upload = (confirm?: string) => uploadPriceList(t.app, AUTH, file, confirm)
      const { confirm } = (await upload()).json().data
      expect((await upload(confirm)).statusCode).toBe(200)
      await waitFor(() => yandex.requests.length === 1, 'the IndexNow batch')
      const [batch] = batches()
      expect(yandex.requests[0]).toMatchObject({ method: 'POST', url: '/indexnow' })
      expect(yandex.requests[0].headers['content-type']).toBe('application/json; charset=utf-8')
      expect(batch).toMatchObject({ host: 'shop.example.ru', key: KEY, keyLocation: `${PUBLIC_URL}/${KEY}.txt` })
      expect(batch.urlList).toEqual(
        expect.arrayContaining([
          `${PUBLIC_URL}/structure/power-tools/screwdriver`,
          `${PUBLIC_URL}/structure/power-tools/angle-grinder`,
          `${PUBLIC_URL}/structure/power-tools/`,
          `${PUBLIC_URL}/structure/garden/`,
        ]),
      )
      expect(new Set(batch.urlList).size).toBe(batch.urlList.length)
      expect(await t.app.indexNow!.runOnce()).toBe(false)
      expect(yandex.requests).toHaveLength(1)
    })

    it('sends the URLs of a content import batch, as of a single write', async () => {
      const body = multipartBody({
        data: JSON.stringify({
          records: [
            { typeId: 'section', title: 'Новый раздел', urlFull: '/structure/indexnow-batch/', parentId: 1 },
            { typeId: 'page', title: 'Новая страница', urlFull: '/structure/indexnow-batch/about', parent: 0 },
          ],
        }),
      })
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/batch/structure',
        headers: { ...AUTH, ...body.headers },
        payload: body.payload,
      })
      expect(res.statusCode).toBe(200)
      await waitFor(() => yandex.requests.length === 1, 'the IndexNow batch')
      expect(batches()[0].urlList).toEqual(
        expect.arrayContaining([
          `${PUBLIC_URL}/structure/indexnow-batch/`,
          `${PUBLIC_URL}/structure/indexnow-batch/about`,
        ]),
      )
    })

    it('sends 10,001 URLs as two requests, waits after a 429 and drops a batch Yandex refuses with 403', async () => {
      await t.app.indexNow!.stop()
      try {
        const urls = Array.from({ length: 10_001 }, (_, i) => `${PUBLIC_URL}/bulk/${i}`)
        await enqueueUrls(t.app.db, [...urls, urls[0]])
        yandex.answers.push({ status: 429, headers: { 'retry-after': '120' } })
        expect(await t.app.indexNow!.runOnce()).toBe(true)
        expect(batches()[0].urlList).toHaveLength(10_000)
        expect(await t.app.indexNow!.runOnce()).toBe(true) // the other one
        expect(await t.app.indexNow!.runOnce()).toBe(false) // the first waits its 120 s
        const later = new Date(Date.now() + 3 * 60_000)
        expect(await t.app.indexNow!.runOnce(later)).toBe(true)
        expect(batches().map((b) => b.urlList.length)).toEqual([10_000, 1, 10_000])
        expect(await statuses()).toMatchObject({ sent: expect.any(Number) })
        expect((await statuses()).pending ?? 0).toBe(0)

        await enqueueUrls(t.app.db, [`${PUBLIC_URL}/refused`])
        yandex.answers.push({ status: 403 })
        expect(await t.app.indexNow!.runOnce()).toBe(true)
        expect(await t.app.indexNow!.runOnce(new Date(Date.now() + 86_400_000))).toBe(false)
        expect(await t.app.indexNow!.stats()).toMatchObject({ dead: 1, lastError: 'HTTP 403', pending: 0 })
      } finally {
        t.app.indexNow!.start()
      }
    })
  })
}

describe('IndexNow across processes', () => {
  const apps: App[] = []
  let dir: string
  let yandex: HttpReceiver
  afterAll(async () => {
    for (const app of apps) await app.close()
    await yandex?.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('never sends the same batch from two processes on one database', async () => {
    yandex = await startHttpReceiver()
    dir = tempDir()
    const env = { INDEXNOW: 'on', INDEXNOW_URL: `${yandex.url}/indexnow` }
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(testConfig(dir, { ...env, LEAD_JOURNAL_DIR: path.join(dir, `journal-${i}`) }))
      await app.ready()
      await app.indexNow!.stop()
      apps.push(app)
    }
    // The generated key is one for the site, whichever process made it.
    expect(apps[0].indexNow!.key).toBe(apps[1].indexNow!.key)
    expect((await apps[1].inject({ url: `/${apps[0].indexNow!.key}.txt` })).body).toBe(apps[0].indexNow!.key)
    for (let round = 0; round < 5; round++) {
      await enqueueUrls(apps[0].db, [`${PUBLIC_URL}/a/${round}`, `${PUBLIC_URL}/b/${round}`])
      await Promise.all(apps.map((app) => app.indexNow!.runOnce()))
    }
    const sent = yandex.requests.flatMap((r) => (JSON.parse(r.body) as { urlList: string[] }).urlList)
    expect(sent).toHaveLength(10)
    expect(new Set(sent).size).toBe(10)
  })
})

describe('IndexNow switched off', () => {
  it('queues nothing and serves no key file with INDEXNOW=off', async () => {
    const t = await buildTestApp({ ADMIN_TOKEN, INDEXNOW: 'off', INDEXNOW_KEY: KEY })
    try {
      expect(t.app.indexNow).toBeNull()
      const body = multipartBody({}, [
        { name: 'file', filename: 'p.csv', bytes: Buffer.from('Артикул;Цена\nЭИ-1002;1\n') },
      ])
      const headers = { ...AUTH, ...body.headers }
      const preview = await t.app.inject({
        method: 'POST',
        url: '/api/admin/price-list/preview',
        headers,
        payload: body.payload,
      })
      const confirm = preview.json().data.confirm as string
      const apply = multipartBody({ confirm }, [
        { name: 'file', filename: 'p.csv', bytes: Buffer.from('Артикул;Цена\nЭИ-1002;1\n') },
      ])
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/price-list/apply',
        headers: { ...AUTH, ...apply.headers },
        payload: apply.payload,
      })
      expect(res.json().data.changed).toBe(1)
      expect(await t.app.db.selectFrom('indexNowUrl').selectAll().execute()).toEqual([])
      expect(await t.app.db.selectFrom('siteSetting').selectAll().execute()).toEqual([])
    } finally {
      await t.close()
    }
  })
})
