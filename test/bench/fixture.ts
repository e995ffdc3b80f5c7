// The bench's catalogue: the demo shop topped up through the write API to the page issue #34's
// peer benchmark measures: a home page with 3 slides, 4 advantages and 12 product cards (the
// featured products, HOME_PRODUCTS of them), and sections of 8 products each for the section page.
import { createHttpClient } from '../../src/api/http-client'
import { createModelApi } from '../../src/api/model-api'
import { undiciFetch } from '../../server/tools/undici-fetch'
import { pngImage } from '../api/helpers'
import { photo } from '../helpers/media'
import { startProdServer } from '../helpers/prod-server'

const CARDS_PER_SECTION = 8
const HOME_CARDS = 12

/**
 * Adds products to the sections until each holds 8 and features demo products until the home page
 * shows 12; returns what the home page shows.
 */
export async function seedBenchCatalogue(baseUrl: string, token: string): Promise<string> {
  const api = createModelApi(createHttpClient({ baseUrl, fetch: await undiciFetch(), timeoutMs: 30_000 }))
  const products = await api.manyAll<{ id: number; parentId: number; product: { featured: boolean } | null }>(
    'structure',
    {
      where: { typeId: { in: ['product'] } },
      select: { id: true, parentId: true, product: { select: { featured: true } } },
      orderBy: { id: 'asc' },
    },
    { token },
  )
  // The demo's own products (their pictures are the demo's SVG drawings, as the peers' page has
  // plain images), featured in id order until the home page has its 12.
  let featured = products.filter((p) => p.product?.featured).length
  for (const p of products) {
    if (featured >= HOME_CARDS) break
    if (!p.product || p.product.featured) continue
    await api.patch('structure', { id: p.id, product: { featured: true } }, { token })
    featured++
  }
  const sections = await api.manyAll<{ id: number; urlFull: string }>(
    'structure',
    { where: { typeId: { in: ['section'] } }, select: { id: true, urlFull: true } },
    { token },
  )
  const image = new File([new Uint8Array(await pngImage(64, 64, [40, 90, 160]))], 'bench.png')
  for (const section of sections) {
    const count = products.filter((p) => p.parentId === section.id).length
    if (count === 0) continue // the catalogue root holds sections, not products
    for (let i = count; i < CARDS_PER_SECTION; i++) {
      await api.post(
        'structure',
        {
          parentId: section.id,
          typeId: 'product',
          title: `Товар для замера ${i + 1}`,
          urlFull: `${section.urlFull}bench-${i + 1}`,
          sort: 100 + i,
          product: {
            image,
            article: `Б-${section.id}-${i + 1}`,
            price: 1990 + i * 100,
            description: 'Товар для замера.',
          },
        },
        { token },
      )
    }
  }
  // What the home page shows, counted in its HTML.
  const html = await (await fetch(`${baseUrl}/`)).text()
  const count = (pattern: RegExp) => html.match(pattern)?.length ?? 0
  return `${count(/class="slider__slide\b/g)} slides, ${count(/class="advantages__item"/g)} advantages, ${count(/class="card"/g)} product cards`
}

/**
 * Gives each featured product (the home page's cards) an uploaded photo of `width` × 3/4 `width`
 * px: a page with photographed cards, each a `<picture>` of its variants (issue 43, item 2).
 */
export async function photographFeatured(baseUrl: string, token: string, width = 2400): Promise<void> {
  const api = createModelApi(createHttpClient({ baseUrl, fetch: await undiciFetch(), timeoutMs: 120_000 }))
  const featured = await api.manyAll<{ id: number; product: { featured: boolean } | null }>(
    'structure',
    { where: { typeId: { in: ['product'] } }, select: { id: true, product: { select: { featured: true } } } },
    { token },
  )
  for (const p of featured.filter((p) => p.product?.featured)) {
    const image = new File([new Uint8Array(await photo(width, (width * 3) / 4))], `photo-${p.id}.jpg`)
    await api.patch('structure', { id: p.id, product: { image } }, { token })
  }
}

/**
 * The bench's catalogue written into the site at `dir` by a server of its own, stopped before the
 * call returns: the measured servers start on a finished database, and no write's after-work
 * (image processing, cache clearing) lands in their CPU time. Returns what the home page shows.
 */
export async function seedBenchSite(dir: string, token: string): Promise<string> {
  const seeding = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: token }, dir)
  try {
    return await seedBenchCatalogue(seeding.url, token)
  } finally {
    await seeding.stop()
  }
}
