// Media from the MEDIA_DIR folder: every answer carries the media policy (an SVG opened on its own
// runs no script), and a share image asked for by many visitors at once is made by one job, with
// every visitor answered and no temporary file left behind.
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { MEDIA_CSP } from '../../server/media/media-routes'
import { StorageUnavailableError } from '../../server/media/storage/media-storage'
import { collectOutput, tempDir, testConfig } from '../helpers/build-test-app'
import { ADMIN_TOKEN } from '../api/helpers'
import { photo, postProduct, variantUrls } from '../helpers/media'

let app: App
let dir: string
const log = collectOutput()
beforeAll(async () => {
  dir = tempDir()
  app = await buildApp(testConfig(dir, { ADMIN_TOKEN, LOG_LEVEL: 'info' }), { logStream: log.out })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const get = (url: string) => app.inject({ method: 'GET', url })
const made = (image: string) =>
  log
    .text()
    .split('\n')
    .filter((line) => line.includes('"image made"') && line.includes(`"image":"${image}"`))

describe('media answers', () => {
  it('carry a policy that lets an SVG run no script, load nothing and stay sandboxed, found or not', async () => {
    const html = (await get('/')).body
    const svg = /src="(\/media\/demo\/[^"]+\.svg)"/.exec(html)![1]
    const res = await get(svg)
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'image/svg+xml'])
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox")
    const upload = await postProduct(app, ADMIN_TOKEN, '/structure/power-tools/csp-photo', await photo(400, 300))
    const variant = variantUrls((await get('/structure/power-tools/csp-photo')).body)[0]
    for (const url of [`/media/${upload.json().data.product.image}`, variant, '/media/demo/nothing.svg']) {
      expect((await get(url)).headers['content-security-policy'], url).toBe(MEDIA_CSP)
    }
  })
})

describe('a conditional or range request that cannot be met', () => {
  it('answers 412 and 416 with the media policy too, sandbox included, /media/ and /og-image/ alike', async () => {
    const svg = /src="(\/media\/demo\/[^"]+\.svg)"/.exec((await get('/')).body)![1]
    const html = (await get('/structure/power-tools/')).body
    const og = /<meta property="og:image" content="https:\/\/shop\.example\.ru(\/og-image\/[^"]+)"/.exec(html)![1]
    expect((await get(og)).statusCode).toBe(200) // made, so the next requests meet a stored file
    const cannot: Array<[Record<string, string>, number]> = [
      [{ 'if-match': '"not-this-one"' }, 412],
      [{ 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }, 412],
      [{ range: 'bytes=99999999-' }, 416],
    ]
    for (const url of [svg, og]) {
      for (const [headers, status] of cannot) {
        const res = await app.inject({ method: 'GET', url, headers })
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(status)
        expect(res.headers['content-security-policy'], `${url} ${JSON.stringify(headers)}`).toBe(MEDIA_CSP)
      }
    }
  })
})

describe('a media answer that fails', () => {
  /** GET of a stored image while the store's open() throws `error`, then the store as it was. */
  async function getFailing(error: Error) {
    const svg = /src="(\/media\/demo\/[^"]+\.svg)"/.exec((await get('/')).body)![1]
    const storage = app.mediaStorage
    const open = storage.open.bind(storage)
    storage.open = () => Promise.reject(error)
    try {
      return await get(svg)
    } finally {
      storage.open = open
    }
  }

  it('is a 503 to retry in 10 s while the store is away, with the media policy, never kept, logged as a warning', async () => {
    const res = await getFailing(new StorageUnavailableError('bucket unreachable'))
    expect([res.statusCode, res.headers['retry-after'], res.headers['cache-control']]).toEqual([503, '10', 'no-store'])
    expect(res.headers['content-security-policy']).toBe(MEDIA_CSP)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({
      error: { code: 'unavailable', message: 'Сервис временно недоступен. Попробуйте позже' },
    })
    const line = log
      .text()
      .split('\n')
      .findLast((entry) => entry.includes('"media store unavailable"'))
    expect(line).toContain('"level":40')
    expect(line).toContain('bucket unreachable')
  })

  it('is a 500 without details for any other failure, with the media policy too', async () => {
    const res = await getFailing(new Error('disk on fire at /secret/path'))
    expect([res.statusCode, res.headers['cache-control']]).toEqual([500, 'no-store'])
    expect(res.headers['content-security-policy']).toBe(MEDIA_CSP)
    expect(res.json()).toEqual({ error: { code: 'internal', message: 'Внутренняя ошибка сервера' } })
    expect(res.body).not.toContain('secret')
    expect(log.text()).toContain('"media request failed"')
  })
})

describe('a share image', () => {
  it('asked for by six visitors at once is made by one job, and every one of them gets it', async () => {
    const html = (await get('/structure/power-tools/')).body
    const og = /<meta property="og:image" content="https:\/\/shop\.example\.ru(\/og-image\/([^"]+))"/.exec(html)!
    const key = `og/${og[2].replace('/', '-')}.jpg`
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => get(og[1])))
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200])
    for (const res of answers) expect(res.rawPayload.equals(answers[0].rawPayload)).toBe(true)
    expect(await sharp(answers[0].rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 })
    expect(made(key)).toHaveLength(1)
    expect(answers[0].headers['content-security-policy']).toBe(MEDIA_CSP)
    const ogDir = path.join(dir, 'media', 'og')
    expect(fs.readdirSync(ogDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
    expect(fs.readFileSync(path.join(dir, 'media', key)).equals(answers[0].rawPayload)).toBe(true)
  })
})

describe('a derived image (share image, feed picture) is made from an original alone (issue #36)', () => {
  it('refuses a variant, a derived image or any other stored name with a 404 before reading the store', async () => {
    const upload = await postProduct(app, ADMIN_TOKEN, '/structure/power-tools/og-source', await photo(800, 600))
    const original: string = upload.json().data.product.image
    const stem = original.replace(/\.jpg$/, '')
    const feedCopy = `feed/${original.replace('/', '-')}.jpg`
    expect((await get(`/feed-image/${original}.jpg`)).statusCode).toBe(200)
    const refused = [`${stem}-320.webp`, `${stem}-640.avif`, `${stem}-800.webp`, feedCopy, `og/${original}`]
    for (const name of refused.slice(0, 4)) expect(await app.mediaStorage.size(name), name).not.toBe(null)
    const ogDir = path.join(dir, 'media', 'og')
    const feedDir = path.join(dir, 'media', 'feed')
    const before = [fs.readdirSync(ogDir).sort(), fs.readdirSync(feedDir).sort()]
    const storage = app.mediaStorage
    const touched: string[] = []
    const { size, read, open } = storage
    storage.size = (key) => (touched.push(key), size.call(storage, key))
    storage.read = (key) => (touched.push(key), read.call(storage, key))
    storage.open = (key, raw) => (touched.push(key), open.call(storage, key, raw))
    try {
      for (const prefix of ['/og-image/', '/feed-image/']) {
        const names = [...refused, 'uploads/photo.jpg', `${stem}.jpg.tmp`]
        // A feed picture's URL is its source's name with .jpg after it (the old one, without, redirects).
        for (const name of prefix === '/feed-image/' ? names.flatMap((n) => [n, `${n}.jpg`]) : names) {
          const res = await get(`${prefix}${name}`)
          expect(res.statusCode, `${prefix}${name}`).toBe(404)
          expect(res.headers['content-security-policy']).toBe(MEDIA_CSP)
        }
      }
    } finally {
      Object.assign(storage, { size, read, open })
    }
    expect(touched).toEqual([])
    expect([fs.readdirSync(ogDir).sort(), fs.readdirSync(feedDir).sort()]).toEqual(before)
    expect(made(`og/${stem.replace('/', '-')}-320.webp.jpg`)).toEqual([])
  })

  it('makes the share image and the feed picture of an original upload, a legacy upload and a demo image', async () => {
    const upload = await postProduct(app, ADMIN_TOKEN, '/structure/power-tools/og-original', await photo(640, 480))
    const original: string = upload.json().data.product.image
    const legacy = `uploads/${'ab'.repeat(16)}.jpg`
    await app.mediaStorage.write(legacy, await photo(300, 200))
    const demo = /src="\/media\/(demo\/[^"]+\.svg)"/.exec((await get('/')).body)![1]
    for (const source of [original, legacy, demo]) {
      const og = await get(`/og-image/${source}`)
      expect([og.statusCode, og.headers['content-type']], source).toEqual([200, 'image/jpeg'])
      expect(await sharp(og.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 })
      const feed = await get(`/feed-image/${source}.jpg`)
      expect([feed.statusCode, feed.headers['content-type']], source).toEqual([200, 'image/jpeg'])
    }
  })
})
