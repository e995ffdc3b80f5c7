// Fills an empty database with the demo shop on first start, and takes it away in one step when the
// owner asks («Убрать демо-магазин»). Runs through the write door, in one write transaction, so two
// PM2 workers starting together seed once, and a crash leaves nothing half-written; the demo's URLs
// are not announced to IndexNow.
import { parseMoney } from '../../src/format/money'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT_DIR } from '../config/config'
import type { Availability } from '../data/schema'
import type { ContentDoor } from '../content/content-write'
import { deleteRecordAndParts, hasAnyRecord, insertRecord, loadDeletable } from '../content/structure-store'
import { DEMO_PRODUCT_DETAILS, demoVariant } from '../content/demo-catalogue'
import {
  DEMO_ADVANTAGES,
  DEMO_CATALOGUE,
  DEMO_FEATURED_PRODUCT,
  DEMO_ORDER_TYPES,
  DEMO_SECTIONS,
  DEMO_SITE,
  DEMO_SLIDES,
  type DemoProduct,
} from '../content/demo-content'
import { DEMO_PAGES } from '../content/demo-documents'
import { DEMO_FASTENERS, DEMO_FASTENERS_SECTION } from '../content/demo-fasteners'
import { applyDemoFilters } from './demo-characteristics'
import { createProducts } from './products/product-rows'
import { writeVariants } from './products/variant-rows'
import type { DemoRemoval } from '../../src/admin/admin-api'

const DEMO_MEDIA_DIR = path.join(ROOT_DIR, 'server/content/demo-media')

/** Stores a media file under its media path (the app's media store: a folder or a bucket). */
export type StoreImage = (key: string, bytes: Buffer) => Promise<void>

/** A StoreImage that writes into a folder, for the database alone (tools, tests). */
export function storeInFolder(mediaDir: string): StoreImage {
  return async (key, bytes) => {
    const target = path.join(mediaDir, key)
    if (fs.existsSync(target)) return
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, bytes)
  }
}

/** Stores every shipped demo image under a content-hashed name; returns file → media path. */
async function installImages(store: StoreImage): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  for (const file of fs.readdirSync(DEMO_MEDIA_DIR).sort()) {
    const bytes = fs.readFileSync(path.join(DEMO_MEDIA_DIR, file))
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10)
    const ext = path.extname(file)
    const key = `demo/${path.basename(file, ext)}-${hash}${ext}`
    await store(key, bytes)
    names.set(file, key)
  }
  return names
}

/** Returns true when it seeded, false when the database already had content. */
export async function seedDemoContent(door: ContentDoor, store: StoreImage): Promise<boolean> {
  if (await hasAnyRecord(door.db)) return false
  // Images first, outside the transaction (a bucket is a network away): a record never names a
  // missing file, and files stored for a seed another process won are the same files.
  const names = await installImages(store)
  const image = (file: string) => {
    const key = names.get(file)
    if (key === undefined) throw new Error(`demo image ${file} is not in ${DEMO_MEDIA_DIR}`)
    return key
  }
  return door.write(
    async (unit) => {
      const trx = unit.trx
      if (await hasAnyRecord(trx)) return false
      const insert = async (row: {
        parentId: number | null
        typeId: string
        title: string
        urlFull: string
        sort: number
        content?: string
        metaTitle?: string
        metaDescription?: string
        metaImage?: string
      }) => insertRecord(unit, row)

      const indexId = await insert({
        parentId: null,
        typeId: 'index',
        title: DEMO_SITE.title,
        urlFull: '/',
        sort: 0,
        metaTitle: DEMO_SITE.title,
        metaDescription: DEMO_SITE.metaDescription,
      })
      await trx
        .insertInto('siteIndex')
        .values({
          structureId: indexId,
          logo: image(DEMO_SITE.logo),
          tel: DEMO_SITE.tel,
          telText: DEMO_SITE.telText,
          description: DEMO_SITE.description,
          copyright: DEMO_SITE.copyright,
        })
        .execute()
      for (const [i, slide] of DEMO_SLIDES.entries()) {
        await trx
          .insertInto('sliderItem')
          .values({ structureId: indexId, image: image(slide.image), title: slide.title, sort: i })
          .execute()
      }
      for (const [i, adv] of DEMO_ADVANTAGES.entries()) {
        await trx
          .insertInto('advantage')
          .values({
            structureId: indexId,
            image: image(adv.image),
            title: adv.title,
            description: adv.description,
            sort: i,
          })
          .execute()
      }

      const catalogueId = await insert({
        parentId: indexId,
        typeId: 'section',
        title: DEMO_CATALOGUE.title,
        urlFull: '/structure/',
        sort: 1,
        content: DEMO_CATALOGUE.content,
        metaDescription: DEMO_CATALOGUE.content,
      })
      const addProduct = async (
        parentId: number,
        urlFull: string,
        sort: number,
        p: Omit<DemoProduct, 'price'> & { price: number | string; availability?: Availability },
      ) => {
        const more = DEMO_PRODUCT_DETAILS[p.slug] ?? {}
        const [id] = await createProducts(unit, [
          {
            record: { parentId, title: p.title, urlFull, sort, metaDescription: p.description },
            fields: {
              article: p.article,
              price: more.priceOnRequest ? null : demoKopecks(p.price),
              oldPrice: more.oldPrice === undefined ? null : demoKopecks(more.oldPrice),
              vendor: more.vendor ?? null,
              availability: p.availability ?? more.availability ?? 'in_stock',
              featured: more.featured ? 1 : 0,
              description: p.description,
            },
            gallery: [...(p.image ? [p.image] : []), ...(more.gallery ?? [])].map((file) => ({ image: image(file) })),
            properties: (more.properties ?? []).map(({ group, ...row }) => ({ ...row, groupName: group ?? null })),
          },
        ])
        if (more.variants) await writeVariants(unit, id, more.variants.map(demoVariant), true)
        return id
      }
      for (const [i, section] of DEMO_SECTIONS.entries()) {
        const sectionUrl = `/structure/${section.slug}/`
        const sectionId = await insert({
          parentId: catalogueId,
          typeId: 'section',
          title: section.title,
          urlFull: sectionUrl,
          sort: i,
          content: section.content,
          metaDescription: section.content,
          metaImage: image(section.image),
        })
        if (i === 0) await addProduct(sectionId, '/structure/product', 0, DEMO_FEATURED_PRODUCT)
        for (const [j, product] of section.products.entries()) {
          await addProduct(sectionId, `${sectionUrl}${product.slug}`, j + 1, product)
        }
      }
      // The long section (demo-fasteners.ts): more products than one page shows.
      const fastenersUrl = `/structure/${DEMO_FASTENERS_SECTION.slug}/`
      const fastenersId = await insert({
        parentId: catalogueId,
        typeId: 'section',
        title: DEMO_FASTENERS_SECTION.title,
        urlFull: fastenersUrl,
        sort: DEMO_SECTIONS.length,
        content: DEMO_FASTENERS_SECTION.content,
        metaDescription: DEMO_FASTENERS_SECTION.content,
        metaImage: image(DEMO_FASTENERS_SECTION.image),
      })
      for (const [j, p] of DEMO_FASTENERS.entries()) await addProduct(fastenersId, `${fastenersUrl}${p.slug}`, j, p)
      await applyDemoFilters(door, unit)
      for (const [i, page] of DEMO_PAGES.entries()) {
        await insert({
          parentId: indexId,
          typeId: 'page',
          title: page.title,
          urlFull: `/${page.slug}`,
          sort: 10 + i,
          content: page.content,
        })
      }
      for (const orderType of DEMO_ORDER_TYPES) await trx.insertInto('orderType').values(orderType).execute()
      return true
    },
    { announce: false },
  )
}

/** The demo shop's catalogue as the seed writes it: its products' URLs, then its sections'. */
function demoCatalogueUrls(): { products: string[]; sections: string[] } {
  const sections = [
    ...DEMO_SECTIONS.map((section) => ({ url: `/structure/${section.slug}/`, products: section.products })),
    { url: `/structure/${DEMO_FASTENERS_SECTION.slug}/`, products: DEMO_FASTENERS },
  ]
  return {
    products: ['/structure/product', ...sections.flatMap((s) => s.products.map((p) => `${s.url}${p.slug}`))],
    sections: sections.map((s) => s.url),
  }
}

/** How many of the demo shop's products the site still has (0: nothing to remove). */
export async function demoProductsLeft(door: ContentDoor): Promise<number> {
  const rows = await door.db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', 'in', demoCatalogueUrls().products)
    .where('typeId', '=', 'product')
    .execute()
  return rows.length
}

/**
 * «Убрать демо-магазин» (issue 45): the demo's products and sections, and the home page's demo
 * slides and advantages (those that show a demo picture), in one write through the door, so their
 * URLs answer 410, search forgets them and IndexNow hears of it. The home page's record, the
 * catalogue's top section, the documents and the owner's own records stay; a demo section the owner
 * put records in stays too, named in `kept`. An import or a 1C exchange then fills an empty catalogue.
 */
export async function removeDemoShop(door: ContentDoor): Promise<DemoRemoval> {
  const urls = demoCatalogueUrls()
  return door.write(async (unit) => {
    const trx = unit.trx
    let products = 0
    let sections = 0
    const kept: string[] = []
    const found = await trx
      .selectFrom('structure')
      .select(['id', 'urlFull', 'typeId', 'title'])
      .where('urlFull', 'in', [...urls.products, ...urls.sections])
      .execute()
    const byUrl = new Map(found.map((row) => [row.urlFull, row]))
    for (const url of [...urls.products, ...urls.sections]) {
      const row = byUrl.get(url)
      if (!row || row.typeId !== (urls.products.includes(url) ? 'product' : 'section')) continue
      const record = await loadDeletable(trx, row.id)
      if (!record) continue
      if (record.children > 0) {
        kept.push(row.title)
        continue
      }
      await deleteRecordAndParts(unit, row.id, record.urlFull)
      if (row.typeId === 'product') products++
      else sections++
    }
    const index = await trx.selectFrom('structure').select('id').where('urlFull', '=', '/').executeTakeFirst()
    let slides = 0
    let advantages = 0
    if (index) {
      await unit.touch([index.id])
      const gone = await trx
        .deleteFrom('sliderItem')
        .where('structureId', '=', index.id)
        .where('image', 'like', 'demo/%')
        .executeTakeFirst()
      slides = Number(gone.numDeletedRows)
      const left = await trx
        .deleteFrom('advantage')
        .where('structureId', '=', index.id)
        .where('image', 'like', 'demo/%')
        .executeTakeFirst()
      advantages = Number(left.numDeletedRows)
    }
    // The menu of sections and the home page's blocks are on every page.
    unit.affectsEveryPage()
    return { products, sections, slides, advantages, kept }
  })
}

/** A demo price in kopecks: whole rubles (a number), or rubles as a shop writes them («329,90»). */
function demoKopecks(price: number | string): number {
  if (typeof price === 'number') return price * 100
  const read = parseMoney(price)
  if (!read.ok) throw new Error(`demo price ${price}: ${read.reason}`)
  return read.kopecks
}
