// Moving a one-host shop's images into a bucket: `npm run content -- media-sync` copies MEDIA_DIR
// into the bucket, sends only what the bucket lacks (so a second run, or one after a cut, finishes
// the job), and a site switched to the bucket then serves every image of its pages from it.
// The backup tool says where the images are instead of copying a bucket.
import fs from 'node:fs'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dbPlugin } from '../../server/data/db-plugin'
import { mediaRoutes } from '../../server/media/media-routes'
import { mediaStoragePlugin } from '../../server/media/storage/storage-plugin'
import { backupMain } from '../../server/tools/backup'
import { mediaSyncMain } from '../../server/tools/content'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, collectOutput, tempDir, testConfig, type TestApp } from '../helpers/build-test-app'
import { photo, postProduct, variantUrls } from '../helpers/media'
import { startTestBucket, type TestBucket } from '../helpers/s3'

let bucket: TestBucket
let site: TestApp
let image: string
beforeAll(async () => {
  bucket = await startTestBucket()
  site = await buildTestApp({ ADMIN_TOKEN }) // on disk, as a one-host shop is
  const res = await postProduct(site.app, ADMIN_TOKEN, '/structure/power-tools/moved', await photo(800, 600))
  expect(res.statusCode).toBe(201)
  image = res.json().data.product.image
})
afterAll(async () => {
  await site?.close()
  await bucket?.close()
})

/** Every file of the media folder, as media paths. */
function mediaFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? mediaFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [prefix + entry.name],
    )
}

const sync = async (into: TestBucket = bucket) => {
  const out = collectOutput()
  await mediaSyncMain({ MEDIA_DIR: site.config.mediaDir, ...into.env }, out.out)
  return out.text()
}

describe('npm run content -- media-sync', () => {
  it('refuses to run without a bucket configured', async () => {
    await expect(mediaSyncMain({ MEDIA_DIR: site.config.mediaDir }, collectOutput().out)).rejects.toThrow(
      /MEDIA_STORAGE=s3/,
    )
  })

  it('stops when the bucket is unreachable, saying that a new run goes on', async () => {
    bucket.cut()
    try {
      await expect(sync()).rejects.toThrow(/unreachable.*run media-sync again/)
    } finally {
      bucket.heal()
    }
  })

  it('copies what the bucket lacks, leaves out temporary and hidden files, and sends nothing twice', async () => {
    const files = mediaFiles(site.config.mediaDir).filter((file) => !file.endsWith('.tmp') && file !== '.DS_Store')
    fs.writeFileSync(path.join(site.config.mediaDir, 'uploads', `${path.basename(image)}.1a2b3c.tmp`), 'half')
    fs.writeFileSync(path.join(site.config.mediaDir, '.DS_Store'), 'finder')
    const own = await startTestBucket() // a bucket of its own: what it holds is this test's doing
    try {
      expect(await sync(own)).toContain(`${files.length} copied, 0 already there, 2 skipped (not media)`)
      expect([...own.created].sort()).toEqual([...files].sort())
      for (const file of files) {
        const stored = Buffer.from(await (await fetch(own.objectUrl(file))).arrayBuffer())
        expect(stored.equals(fs.readFileSync(path.join(site.config.mediaDir, file))), file).toBe(true)
      }

      // A run cut short, then run again: only what is missing goes.
      const missing = files.filter((file) => file.endsWith('.webp'))
      for (const file of missing) await own.remove(file)
      const again = own.created.length
      expect(await sync(own)).toContain(`${missing.length} copied, ${files.length - missing.length} already there`)
      expect(own.created.slice(again).sort()).toEqual(missing.sort())
      const third = own.created.length
      expect(await sync(own)).toContain(`0 copied, ${files.length} already there`)
      expect(own.created.length).toBe(third)
    } finally {
      await own.close()
    }
  })

  it('leaves a site switched to the bucket serving every image of its pages from it', async () => {
    const html = (await site.app.inject({ method: 'GET', url: '/structure/power-tools/moved' })).body
    const urls = [
      `/media/${image}`,
      ...variantUrls(html),
      ...[...html.matchAll(/src="(\/media\/demo\/[^"]+)"/g)].map((m) => m[1]),
    ]
    await sync()
    const moved: FastifyInstance = Fastify()
    // MEDIA_DIR a folder that does not exist: the bucket alone answers.
    const config = testConfig(site.dir, { ...bucket.env, MEDIA_DIR: path.join(site.dir, 'nowhere') })
    await moved.register(mediaStoragePlugin, { config })
    await moved.register(dbPlugin, { config })
    await moved.register(mediaRoutes)
    try {
      for (const url of urls) expect((await moved.inject({ method: 'GET', url })).statusCode, url).toBe(200)
    } finally {
      await moved.close()
    }
  })
})

describe('npm run backup with images in a bucket', () => {
  it('copies the database and names the bucket instead of copying it', async () => {
    const dir = tempDir('vitrina-backup-')
    try {
      const out = collectOutput()
      await backupMain([dir], { DATABASE_URL: `file:${path.join(site.dir, 'site.db')}`, ...bucket.env }, out.out)
      const [folder] = fs.readdirSync(dir)
      expect(fs.readdirSync(path.join(dir, folder))).toEqual(['site.db'])
      expect(out.text()).toContain('media: in bucket vitrina-media at http://127.0.0.1:')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
