// An uploaded photo in a real browser (production build): Chromium picks the AVIF variant that
// fits the screen, never downloads the original, lets the page's CSP load it, and nothing shifts.
import sharp from 'sharp'
import type { Browser } from 'playwright-core'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { launchBrowser, waitForVike, watchErrors } from '../helpers/browser'
import { ensureBuild, NOT_KEPT_ALIVE, startProdServer, type ProdServer } from '../helpers/prod-server'

const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef'
const PAGE = '/structure/power-tools/photo-drill'

let server: ProdServer
let browser: Browser
let image: string

beforeAll(async () => {
  ensureBuild()
  server = await startProdServer({ ADMIN_TOKEN })
  browser = await launchBrowser()
  const parent = await fetch(
    `${server.url}/api/structure?query=${encodeURIComponent(JSON.stringify({ where: { urlFull: '/structure/power-tools/' } }))}`,
  )
  const photo = await sharp({
    create: {
      width: 1500,
      height: 1000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 120, sigma: 30 },
    },
  })
    .jpeg()
    .toBuffer()
  const form = new FormData()
  form.append(
    'data',
    JSON.stringify({
      parentId: (await parent.json()).data.id,
      typeId: 'product',
      title: 'Дрель с фотографией',
      urlFull: PAGE,
      sort: 1, // in the first row of its section's grid
      product: { price: 4990 },
    }),
  )
  form.append('product.image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg')
  const res = await fetch(`${server.url}/api/structure`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.status).toBe(201)
  image = (await res.json()).data.product.image
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
})

async function show(viewport: { width: number; height: number }, deviceScaleFactor: number) {
  const context = await browser.newContext({ viewport, deviceScaleFactor, locale: 'ru-RU' })
  const page = await context.newPage()
  const errors = watchErrors(page)
  const images: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/media/uploads/')) images.push(response.url())
  })
  await page.addInitScript(() => {
    ;(window as any).__shift = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) (window as any).__shift += (entry as any).value
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(server.url + PAGE)
  await waitForVike(page, PAGE)
  const img = page.locator('.product__media img')
  await page.waitForFunction(() => (document.querySelector('.product__media img') as HTMLImageElement).complete)
  const shown = await img.evaluate((el: HTMLImageElement) => ({
    src: el.currentSrc,
    box: [el.getBoundingClientRect().width, el.getBoundingClientRect().height],
    shift: (window as any).__shift as number,
  }))
  await context.close()
  return { ...shown, images, errors }
}

const stemOf = (stored: string) => stored.replace(/\.jpg$/, '')

describe('an uploaded photo in a browser', () => {
  it('gives a phone the small AVIF variant, a wide high-density screen the largest, and never the original', async () => {
    const stem = stemOf(image)
    const phone = await show({ width: 390, height: 844 }, 1)
    expect(phone.src).toBe(`${server.url}/media/${stem}-640.avif`)
    const desktop = await show({ width: 1280, height: 800 }, 2)
    expect(desktop.src).toBe(`${server.url}/media/${stem}-1500.avif`)
    for (const seen of [phone, desktop]) {
      expect(seen.images).toEqual([seen.src]) // one image request, allowed by the CSP, and not the JPEG
      expect(seen.errors).toEqual([])
      expect(seen.box[0]).toBeCloseTo(seen.box[1], 0) // the square box of the product photo
      expect(seen.shift).toBe(0)
    }
  })

  it('sits in a product grid exactly where a plain image would', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' })
    const page = await context.newPage()
    await page.goto(server.url + '/structure/power-tools/')
    await waitForVike(page, '/structure/power-tools/')
    const row = await page.locator('.card').evaluateAll((cards) =>
      cards.slice(0, 4).map((card) => ({
        picture: card.querySelector('picture') !== null,
        image: card.querySelector('img')!.getBoundingClientRect().toJSON(),
        title: card.querySelector('.card__title')!.getBoundingClientRect().top,
      })),
    )
    await context.close()
    expect(row.filter((card) => card.picture)).toHaveLength(1) // the photo among demo SVGs
    for (const card of row.slice(1)) {
      expect([card.image.top, card.image.width, card.image.height, card.title]).toEqual([
        row[0].image.top,
        row[0].image.width,
        row[0].image.height,
        row[0].title,
      ])
    }
  })

  it('gives a card its sharp 640 px AVIF on a 1× desktop and on a 2× phone, and a WebP to browsers without AVIF', async () => {
    const stem = stemOf(image)
    const cardImage = async (viewport: { width: number; height: number }, deviceScaleFactor: number) => {
      const context = await browser.newContext({ viewport, deviceScaleFactor, locale: 'ru-RU' })
      const page = await context.newPage()
      const errors = watchErrors(page)
      await page.goto(server.url + '/structure/power-tools/')
      await waitForVike(page, '/structure/power-tools/')
      const img = page.locator('.card img[src*="/media/uploads/"]')
      await img.scrollIntoViewIfNeeded()
      await page.waitForFunction(() => (document.querySelector('.card picture img') as HTMLImageElement).complete)
      const seen = await img.evaluate((el: HTMLImageElement) => ({
        current: el.currentSrc,
        fallback: el.src,
        // Device pixels of the photo per device pixel of the square box: at least 1 is sharp.
        sharpness: el.naturalHeight / (el.getBoundingClientRect().height * devicePixelRatio),
      }))
      await context.close()
      return { ...seen, errors }
    }
    const desktop = await cardImage({ width: 1280, height: 800 }, 1)
    expect(desktop.current).toBe(`${server.url}/media/${stem}-640.avif`)
    // A budget Android: 360 CSS px at 2×, a card about 156 px wide that wants 312 device pixels.
    const phone = await cardImage({ width: 360, height: 640 }, 2)
    expect(phone.current).toBe(`${server.url}/media/${stem}-640.avif`)
    for (const seen of [desktop, phone]) {
      expect(seen.errors).toEqual([])
      expect(seen.sharpness).toBeGreaterThanOrEqual(1)
    }
    // What a browser that cannot decode AVIF loads: a WebP variant, not the original.
    expect(desktop.fallback).toBe(`${server.url}/media/${stem}-640.webp`)
    const fallback = await fetch(desktop.fallback, { headers: NOT_KEPT_ALIVE })
    expect([fallback.status, fallback.headers.get('content-type')]).toEqual([200, 'image/webp'])
    expect((await sharp(Buffer.from(await fallback.arrayBuffer())).metadata()).width).toBe(640)
  })

  it('gives an upload stored before sized names its sized name when the server starts again', async () => {
    // The data of an older release: the photo stored as uploads/<hash>.jpg, with the 32 hex digits
    // names had then; its sized name keeps them.
    await server.stop()
    const media = path.join(server.dir, 'media')
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(media, image)))
      .digest('hex')
      .slice(0, 32)
    const legacy = `uploads/${hash}.jpg`
    const sized = image.replace(/^uploads\/[0-9a-f]+\./, `uploads/${hash}.`)
    fs.renameSync(path.join(media, image), path.join(media, legacy))
    for (const variant of fs.readdirSync(path.join(media, 'uploads')).filter((name) => /\.(avif|webp)$/.test(name)))
      fs.rmSync(path.join(media, 'uploads', variant))
    const db = new Database(server.dbPath)
    db.prepare('update product set image = ? where image = ?').run(legacy, image)
    db.close()

    server = await startProdServer({ ADMIN_TOKEN }, server.dir)
    // In the background: the first pages may still show the plain image.
    await vi.waitFor(
      async () =>
        expect(await (await fetch(server.url + PAGE, { headers: NOT_KEPT_ALIVE })).text()).toContain(
          `srcSet="/media/${stemOf(sized)}-320.avif`,
        ),
      { timeout: 20_000, interval: 100 },
    )
    const seen = await show({ width: 390, height: 844 }, 1)
    expect(seen.src).toBe(`${server.url}/media/${stemOf(sized)}-640.avif`) // made on its first request
    expect(seen.errors).toEqual([])
    expect(fs.existsSync(path.join(media, `${stemOf(sized)}-640.avif`))).toBe(true)
  })
})
