// Responsive images end to end: an upload through the write API gets its WebP and AVIF variants on
// disk before the answer, the pages list them in srcset, /media/ serves them immutable, makes a
// missing one on its first request and answers 404 for names an upload has no variant for.
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bumpContentVersion } from '../../server/data/db'
import { sizeLegacyUploads } from '../../server/media/legacy-uploads'
import { imageColumns } from '../../server/model-api/registry'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { multipartBody } from '../helpers/multipart'
import { variantUrls } from '../helpers/media'
import { ADMIN_TOKEN, pngImage } from './helpers'

let t: TestApp
let powerToolsId: number
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
  powerToolsId = (
    await t.app.db
      .selectFrom('structure')
      .select('id')
      .where('urlFull', '=', '/structure/power-tools/')
      .executeTakeFirstOrThrow()
  ).id
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })

/** A photo-like JPEG (noise, so the encoders have real work), width × height. */
function photo(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120, sigma: 30 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
}

async function write(data: Record<string, unknown>, files: Record<string, Buffer>) {
  const body = multipartBody(
    { data: JSON.stringify(data) },
    Object.entries(files).map(([name, bytes]) => ({ name, filename: 'photo.jpg', bytes })),
  )
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/structure',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().data
}

/** The srcset of each <source> of the first <picture> in html, by type, as [url, descriptor]. */
function sources(html: string): Record<string, Array<[string, number]>> {
  const picture = /<picture class="image-set">([\s\S]*?)<\/picture>/.exec(html)
  expect(picture, 'a <picture> on the page').not.toBeNull()
  const result: Record<string, Array<[string, number]>> = {}
  for (const [, type, srcset] of picture![1].matchAll(/<source type="([^"]+)" srcSet="([^"]+)"/g)) {
    result[type] = srcset.split(', ').map((candidate) => {
      const [url, w] = candidate.split(' ')
      return [url.replace(/&amp;/g, '&'), Number(w.replace(/w$/, ''))]
    })
  }
  return result
}

const stemOf = (image: string) => image.replace(/\.jpg$/, '')

describe('a product photo uploaded through the write API', () => {
  let image: string
  beforeAll(async () => {
    const created = await write(
      {
        parentId: powerToolsId,
        typeId: 'product',
        title: 'Перфоратор с фото',
        urlFull: '/structure/power-tools/photo-hammer',
        product: { price: 9990 },
      },
      { 'product.image': await photo(1500, 1000) },
    )
    image = created.product.image
  })

  it('is stored under a name with its size, with WebP and AVIF variants at every width up to its own', async () => {
    expect(image).toMatch(/^uploads\/[0-9a-f]{16}\.1500x1000\.jpg$/)
    const uploads = path.join(t.config.mediaDir, 'uploads')
    const stem = path.basename(stemOf(image))
    const variants = fs
      .readdirSync(uploads)
      .filter((name) => name.startsWith(`${stem}-`))
      .sort()
    const widths = [320, 640, 960, 1280, 1500] // never wider than the 1500 px original
    expect(variants).toEqual(widths.flatMap((w) => [`${stem}-${w}.avif`, `${stem}-${w}.webp`]).sort())
    for (const w of widths) {
      for (const format of ['avif', 'webp']) {
        const meta = await sharp(path.join(uploads, `${stem}-${w}.${format}`)).metadata()
        expect([meta.format, meta.width, meta.height]).toEqual([
          format === 'avif' ? 'heif' : 'webp',
          w,
          Math.round((w * 1000) / 1500),
        ])
      }
    }
  })

  it('is shown on its page as a <picture> whose srcset lists the variants, in a box that does not shift', async () => {
    const html = (await get('/structure/power-tools/photo-hammer')).body
    const listed = sources(html)
    expect(Object.keys(listed)).toEqual(['image/avif'])
    // The square box crops the 3:2 photo to its height, so each variant is worth 2/3 of its width.
    expect(listed['image/avif']).toEqual(
      [320, 640, 960, 1280, 1500].map((w) => [`/media/${stemOf(image)}-${w}.avif`, Math.round((w * 2) / 3)]),
    )
    const picture = /<picture class="image-set">([\s\S]*?)<\/picture>/.exec(html)![1]
    expect(picture).toMatch(/<source type="image\/avif" srcSet="[^"]+" sizes="\(min-width: 1200px\) 572px,[^"]+"/)
    // A browser without AVIF gets one WebP variant, the narrowest as wide as the 600 px box, with
    // the width and height of its box and loaded first.
    const img = /<img [^>]*>/.exec(picture)![0]
    expect(img).toContain(`src="/media/${stemOf(image)}-640.webp"`)
    expect(img).toContain('width="600"')
    expect(img).toContain('height="600"')
    expect(img).toContain('loading="eager"')
    expect(img).toContain('fetchPriority="high"')
    // No preload of the heavy original: the browser fetches only the variant it picks.
    expect(html).not.toMatch(/<link rel="preload"[^>]*\.1500x1000\.jpg/)
  })

  it('is listed in its product card as the one variant phones and desktops choose', async () => {
    // A card is 156–280 CSS px: its 640 px variant, in each format (decision 045).
    const html = (await get('/structure/power-tools/')).body
    const card = /<article class="card">(?:(?!<\/article>)[\s\S])*?photo-hammer[\s\S]*?<\/article>/.exec(html)
    expect(card, 'the product card on its section page').not.toBeNull()
    expect(card![0]).toContain(
      `<source type="image/avif" srcSet="/media/${stemOf(image)}-640.avif"/><img class="image image--square" src="/media/${stemOf(image)}-640.webp"`,
    )
  })

  it('has its variants served with immutable caching, each in its own format', async () => {
    const urls = variantUrls((await get('/structure/power-tools/photo-hammer')).body)
    expect(urls.filter((url) => url.endsWith('.webp'))).toHaveLength(1) // the fallback
    for (const url of urls) {
      const res = await get(url)
      expect([res.statusCode, res.headers['content-type'], res.headers['cache-control']], url).toEqual([
        200,
        `image/${url.split('.').pop()}`,
        'public, max-age=31536000, immutable',
      ])
    }
  })

  it('answers 404 for a variant name the upload does not have, and writes nothing', async () => {
    const stem = stemOf(image)
    const before = fs.readdirSync(path.join(t.config.mediaDir, 'uploads')).length
    for (const url of [
      `/media/${stem}-777.webp`, // not a width of the ladder
      `/media/${stem}-1920.avif`, // wider than the original
      `/media/${stem}-320.jpg`, // not a variant format
      `/media/${stem.replace(/[0-9a-f]{16}/, '0'.repeat(16))}-320.webp`, // no such upload
      `/media/${stem.replace('1500x1000', '3000x2000')}-1920.webp`, // a size the upload was not stored with
    ]) {
      expect((await get(url)).statusCode, url).toBe(404)
    }
    expect(fs.readdirSync(path.join(t.config.mediaDir, 'uploads')).length).toBe(before)
  })

  it('makes a missing variant on its first request, once for visitors asking at the same time', async () => {
    const variant = path.join(t.config.mediaDir, `${stemOf(image)}-640.avif`)
    fs.rmSync(variant) // as after restoring only the originals from a backup
    const answers = await Promise.all([1, 2, 3].map(() => get(`/media/${stemOf(image)}-640.avif`)))
    for (const res of answers) {
      expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'image/avif'])
      expect(res.rawPayload.equals(answers[0].rawPayload)).toBe(true)
    }
    expect(await sharp(variant).metadata()).toMatchObject({ format: 'heif', width: 640, height: 427 })
    expect(fs.readFileSync(variant).equals(answers[0].rawPayload)).toBe(true)
    // No half-written temporary file is left behind.
    expect(fs.readdirSync(path.dirname(variant)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})

/**
 * The product's one image, as a database from before the gallery holds it after migration 012:
 * product.image and the gallery's only picture (decision 025).
 */
async function setOnlyImage(structureId: number, image: string) {
  await t.app.db.updateTable('product').set({ image }).where('structureId', '=', structureId).execute()
  await t.app.db.deleteFrom('productImage').where('structureId', '=', structureId).execute()
  await t.app.db.insertInto('productImage').values({ structureId, image, alt: null, sort: 0 }).execute()
}

describe('images that have no variants', () => {
  it('shows an upload stored before variants existed (no size in its name) as a plain <img>', async () => {
    const legacy = `uploads/${'a'.repeat(32)}.png`
    fs.mkdirSync(path.join(t.config.mediaDir, 'uploads'), { recursive: true })
    fs.writeFileSync(path.join(t.config.mediaDir, legacy), await pngImage(40, 40))
    const product = await t.app.db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .select('structure.id')
      .where('urlFull', '=', '/structure/product')
      .executeTakeFirstOrThrow()
    await setOnlyImage(product.id, legacy)
    await bumpContentVersion(t.app.db)
    t.app.content.invalidate()
    const html = (await get('/structure/product')).body
    expect(html).toMatch(new RegExp(`<img [^>]*src="/media/${legacy.replace('.', '\\.')}"[^>]*width="600"`))
    expect(html).not.toContain('<picture')
    expect(html).not.toContain('srcSet')
    expect((await get(`/media/${legacy}`)).statusCode).toBe(200)
  })

  it('leaves the demo SVG images as they are', async () => {
    const slider = /<section class="slider"[\s\S]*?<\/section>/.exec((await get('/')).body)![0]
    expect(slider).toMatch(/<img [^>]*src="\/media\/demo\/slide-1[^"]*\.svg"[^>]*loading="eager"/)
    expect(slider).not.toContain('<picture')
    expect(slider).not.toContain('srcSet')
  })
})

describe('slides', () => {
  it('loads the first slide eagerly with high priority and every later image lazily', async () => {
    const [a, b, c] = await Promise.all([photo(1000, 417), photo(1000, 417), photo(1000, 417)])
    const created = await write(
      {
        parentId: null,
        typeId: 'index',
        title: 'Витрина со слайдами',
        urlFull: '/slides/',
        index: { tel: '+7 (495) 000-00-01' },
        sliderItems: [{ title: 'Первый' }, { title: 'Второй' }, { title: 'Третий' }],
      },
      { 'sliderItems.0.image': a, 'sliderItems.1.image': b, 'sliderItems.2.image': c },
    )
    const html = (await get('/slides/')).body
    const slides = [...html.matchAll(/<figure class="slider__slide"[\s\S]*?<\/figure>/g)].map((m) => m[0])
    expect(slides).toHaveLength(3)
    created.sliderItems.forEach((item: { image: string }, i: number) => {
      expect(slides[i]).toContain(`srcSet="/media/${stemOf(item.image)}-320.avif`)
      // The slide is drawn across the container: up to the 1000 px original width, the fallback too.
      expect(slides[i]).toContain(`/media/${stemOf(item.image)}-1000.avif 1000w`)
      expect(slides[i]).toContain(`src="/media/${stemOf(item.image)}-1000.webp"`)
    })
    expect(slides[0]).toMatch(/<img [^>]*loading="eager"[^>]*fetchPriority="high"/)
    for (const later of slides.slice(1)) {
      expect(later).toMatch(/<img [^>]*loading="lazy"/)
      expect(later).not.toContain('fetchPriority')
    }
    const afterSlider = html.slice(html.indexOf('</section>'))
    expect(afterSlider).not.toContain('loading="eager"')
  })
})

describe('uploads stored before sizes were in the name', () => {
  it('get the sized name a new upload would get, and are then shown through variants', async () => {
    const bytes = await photo(900, 600)
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32)
    const legacy = `uploads/${hash}.jpg`
    fs.writeFileSync(path.join(t.config.mediaDir, legacy), bytes)
    const { id } = await t.app.db
      .selectFrom('structure')
      .select('id')
      .where('urlFull', '=', '/structure/product')
      .executeTakeFirstOrThrow()
    await setOnlyImage(id, legacy)
    await t.app.db.updateTable('structure').set({ metaImage: legacy }).where('id', '=', id).execute()

    // What the server runs in the background at start-up (legacyUploadsPlugin; the browser suite
    // restarts a server on such data).
    expect(await sizeLegacyUploads(t.app.writeDoor, imageColumns(), t.app.mediaStorage, () => false)).toBe(1)
    t.app.content.invalidate()
    const sized = `uploads/${hash}.900x600.jpg`
    expect(
      await t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select(['product.image', 'structure.metaImage'])
        .where('structure.id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ image: sized, metaImage: sized })
    const gallery = await t.app.db.selectFrom('productImage').select('image').where('structureId', '=', id).execute()
    expect(gallery).toEqual([{ image: sized }])
    expect(fs.readFileSync(path.join(t.config.mediaDir, sized)).equals(bytes)).toBe(true)
    const page = (await get('/structure/product')).body
    expect(page).toContain(`srcSet="/media/uploads/${hash}.900x600-320.avif 213w`)
    const variant = await get(`/media/uploads/${hash}.900x600-900.webp`)
    expect([variant.statusCode, variant.headers['content-type']]).toEqual([200, 'image/webp'])
    expect(await sharp(variant.rawPayload).metadata()).toMatchObject({ width: 900, height: 600 })
    // The old name still answers, for links made before; a second run finds nothing to do.
    expect((await get(`/media/${legacy}`)).statusCode).toBe(200)
    expect(await sizeLegacyUploads(t.app.writeDoor, imageColumns(), t.app.mediaStorage, () => false)).toBe(0)
  })
})
