// Images in an S3-compatible bucket (MEDIA_STORAGE=s3), against a real S3 server in the test
// process: uploads, their variants, the demo shop's images and share images go to the bucket, not
// the disk; /media/ answers from the bucket as it does from disk (caching, validators, ranges,
// 404s, the media policy); a variant missing from the bucket is made once; a bucket that cannot
// be reached refuses uploads in Russian and leaves the pages alone.
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEDIA_CSP, mediaRoutes } from '../../server/media/media-routes'
import { STORAGE_DOWN_MESSAGE } from '../../server/media/store-upload'
import { ADMIN_TOKEN } from '../api/helpers'
import Fastify from 'fastify'
import { dbPlugin } from '../../server/data/db-plugin'
import { mediaStoragePlugin } from '../../server/media/storage/storage-plugin'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { photo, postProduct, variantUrls } from '../helpers/media'
import { startTestBucket, type TestBucket } from '../helpers/s3'

const IMMUTABLE = 'public, max-age=31536000, immutable'

let bucket: TestBucket
let t: TestApp
beforeAll(async () => {
  bucket = await startTestBucket()
  t = await buildTestApp({ ADMIN_TOKEN, ...bucket.env })
})
afterAll(async () => {
  await t?.close()
  await bucket?.close()
})

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })
const madeSince = (start: number, mediaPath: string) => bucket.created.slice(start).filter((key) => key === mediaPath)

describe('the demo shop in a bucket', () => {
  it('keeps its images in the bucket, none on disk, and serves them through /media/ as from disk', async () => {
    const html = (await get('/')).body
    const logo = /src="\/media\/(demo\/logo-[^"]+\.svg)"/.exec(html)![1]
    expect(await bucket.has(logo)).toBe(true)
    expect(fs.existsSync(path.join(t.config.mediaDir, 'demo'))).toBe(false)

    const res = await get(`/media/${logo}`)
    expect([res.statusCode, res.headers['content-type'], res.headers['cache-control']]).toEqual([
      200,
      'image/svg+xml',
      IMMUTABLE,
    ])
    expect(res.headers['content-security-policy']).toBe(MEDIA_CSP)
    const shipped = fs.readFileSync(path.join('server/content/demo-media', 'logo.svg'))
    expect(res.rawPayload.equals(shipped)).toBe(true)
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/)
    expect(res.headers['last-modified']).toBeDefined()

    const again = await get(`/media/${logo}`, { 'if-none-match': String(res.headers.etag) })
    expect([again.statusCode, again.headers['cache-control'], again.body]).toEqual([304, IMMUTABLE, ''])
    const part = await get(`/media/${logo}`, { range: 'bytes=0-9', 'accept-encoding': 'identity' })
    expect([part.statusCode, part.headers['content-range'], part.rawPayload.length]).toEqual([
      206,
      `bytes 0-9/${shipped.length}`,
      10,
    ])
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/media/${logo}`,
      headers: { 'accept-encoding': 'identity' },
    })
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([200, String(shipped.length), ''])
  })

  it('answers 404 for what the bucket does not hold or a name no stored file can have', async () => {
    for (const url of ['/media/demo/nothing.svg', '/media/.env', '/media/demo/%2e%2e%2fsite.db', '/media/uploads/']) {
      const res = await get(url)
      expect([res.statusCode, res.json().error.code], url).toEqual([404, 'not_found'])
    }
  })
})

describe('an upload', () => {
  let image: string
  let html: string
  beforeAll(async () => {
    const res = await postProduct(t.app, ADMIN_TOKEN, '/structure/power-tools/bucket-photo', await photo(1000, 750))
    expect(res.statusCode, res.body).toBe(201)
    image = res.json().data.product.image
    html = (await get('/structure/power-tools/bucket-photo')).body
  })

  it('goes to the bucket with every variant its page lists, and nothing to the disk', async () => {
    const variants = variantUrls(html)
    expect(variants.length).toBe(5) // 320, 640, 960 and 1000 px AVIF, and the 640 px WebP fallback
    for (const url of [`/media/${image}`, ...variants]) {
      expect(await bucket.has(url.slice('/media/'.length)), url).toBe(true)
    }
    expect(fs.existsSync(path.join(t.config.mediaDir, 'uploads'))).toBe(false)
    for (const url of variants) {
      const res = await get(url)
      expect([res.statusCode, res.headers['content-type'], res.headers['cache-control']], url).toEqual([
        200,
        `image/${url.split('.').pop()}`,
        IMMUTABLE,
      ])
      expect(res.headers['content-security-policy']).toBe(MEDIA_CSP)
    }
  })

  it('has a variant missing from the bucket made again once, however many visitors ask at once', async () => {
    const variant = variantUrls(html)[1].slice('/media/'.length)
    await bucket.remove(variant)
    const start = bucket.created.length
    const answers = await Promise.all([1, 2, 3, 4].map(() => get(`/media/${variant}`)))
    for (const res of answers) {
      expect(res.statusCode).toBe(200)
      expect(res.rawPayload.equals(answers[0].rawPayload)).toBe(true)
    }
    expect(madeSince(start, variant)).toEqual([variant])
    expect(await sharp(answers[0].rawPayload).metadata()).toMatchObject({ width: 640 })
  })

  it('has a missing variant made once by two processes on one database, the other waiting for it', async () => {
    // The other process: the same database and bucket, the media routes only (one Vite per process).
    const other = Fastify()
    await other.register(mediaStoragePlugin, { config: t.config })
    await other.register(dbPlugin, { config: t.config })
    await other.register(mediaRoutes)
    try {
      const variant = variantUrls(html)[2].slice('/media/'.length)
      await bucket.remove(variant)
      const start = bucket.created.length
      const answers = await Promise.all(
        [t.app, other, t.app, other].map((app) => app.inject({ method: 'GET', url: `/media/${variant}` })),
      )
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200])
      expect(madeSince(start, variant)).toEqual([variant])
      expect(await t.app.db.selectFrom('mediaLease').selectAll().execute()).toEqual([]) // dropped once made
    } finally {
      await other.close()
    }
  })

  it('has its share image made once and kept in the bucket', async () => {
    const og = /<meta property="og:image" content="https:\/\/shop\.example\.ru(\/og-image\/[^"]+)"/.exec(html)![1]
    const key = `og/${image.replace('/', '-')}.jpg`
    const start = bucket.created.length
    const answers = await Promise.all([1, 2, 3].map(() => get(og)))
    expect(answers.map((res) => [res.statusCode, res.headers['content-type']])).toEqual(
      answers.map(() => [200, 'image/jpeg']),
    )
    expect(await sharp(answers[0].rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 })
    expect(madeSince(start, key)).toEqual([key])
    const again = await get(og, { 'if-none-match': String(answers[0].headers.etag) })
    expect(again.statusCode).toBe(304)
  })

  it("has its feed picture (the Yandex feed's JPEG) made once and kept in the bucket", async () => {
    const key = `feed/${image.replace('/', '-')}.jpg`
    const start = bucket.created.length
    const answers = await Promise.all([1, 2, 3].map(() => get(`/feed-image/${image}.jpg`)))
    expect(answers.map((res) => [res.statusCode, res.headers['content-type']])).toEqual(
      answers.map(() => [200, 'image/jpeg']),
    )
    expect(await sharp(answers[0].rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 1000 })
    expect(madeSince(start, key)).toEqual([key])
  })
})

describe('a bucket that cannot be reached', () => {
  it('refuses an upload with a Russian message and writes nothing; pages are served as before', async () => {
    const records = async () => (await t.app.db.selectFrom('structure').select('id').execute()).length
    const before = await records()
    const stored = /src="(\/media\/demo\/logo-[^"]+\.svg)"/.exec((await get('/')).body)![1]
    bucket.cut()
    try {
      const res = await postProduct(t.app, ADMIN_TOKEN, '/structure/power-tools/no-bucket', await photo(400, 300))
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBeDefined()
      expect(res.json().error.message).toBe(STORAGE_DOWN_MESSAGE)
      expect(res.json().errors).toEqual({ 'product.image': STORAGE_DOWN_MESSAGE })
      expect(await records()).toBe(before)

      for (const url of ['/', '/structure/power-tools/', '/structure/product']) {
        expect((await get(url)).statusCode, url).toBe(200)
      }
      const image = await get(stored)
      expect([image.statusCode, image.headers['retry-after']]).toEqual([503, '10'])
    } finally {
      bucket.heal()
    }
    const retried = await postProduct(t.app, ADMIN_TOKEN, '/structure/power-tools/no-bucket', await photo(400, 300))
    expect(retried.statusCode).toBe(201)
  })
})

describe('MEDIA_URL', () => {
  it('points the pages straight at the bucket, whose objects carry their type and year-long caching', async () => {
    const mediaUrl = bucket.objectUrl('').replace(/\/media\/$/, '')
    const direct = await buildTestApp({ ...bucket.env, MEDIA_URL: mediaUrl })
    try {
      const html = (await direct.app.inject({ method: 'GET', url: '/' })).body
      const logo = new RegExp(`src="${mediaUrl}/media/(demo/logo-[^"]+\\.svg)"`).exec(html)
      expect(logo).not.toBeNull()
      const res = await fetch(bucket.objectUrl(logo![1]))
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
        200,
        'image/svg+xml',
        IMMUTABLE,
      ])
    } finally {
      await direct.close()
    }
  })
})
