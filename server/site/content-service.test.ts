// The route map and URL resolution against a real SQLite database with the demo content.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { now, openDatabase, type Db } from '../data/db'
import { seedDemoContent, storeInFolder } from '../catalogue/demo-seed'
import { insertRecord } from '../content/structure-store'
import { ContentService } from './content-service'
import { WriteDoor } from '../catalogue/write-door'

let dir: string
let db: Db
let service: ContentService

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-routes-'))
  db = await openDatabase({ kind: 'sqlite', path: path.join(dir, 'site.db'), explicit: true })
  await seedDemoContent(new WriteDoor(db, { indexNowOrigin: null }), storeInFolder(path.join(dir, 'media')))
  service = new ContentService(db, {
    ttlSeconds: 120,
    publicSettings: {
      publicUrl: 'http://x',
      mediaUrl: '',
      metrikaId: null,
      metrikaTagUrl: 'https://mc.yandex.ru/metrika/tag.js',
    },
  })
})
afterEach(async () => {
  await db.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

async function insertPage(urlFull: string, typeId = 'page', parentUrl = '/') {
  const parent = await db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', '=', parentUrl)
    .executeTakeFirstOrThrow()
  return new WriteDoor(db, { indexNowOrigin: null }).write((unit) =>
    insertRecord(unit, { parentId: parent.id, typeId, title: `Страница ${urlFull}`, urlFull, sort: 50 }),
  )
}

describe('the route map', () => {
  it('maps the tree’s record URLs and lists the index records as the spec’s structure load does', async () => {
    const routes = await service.routes()
    expect(routes.byUrl.get('/')?.typeId).toBe('index')
    expect(routes.byUrl.get('/structure/')?.typeId).toBe('section')
    expect(routes.byUrl.get('/politika')?.typeId).toBe('page')
    expect(routes.indexes.map((i) => i.urlFull)).toEqual(['/'])
    expect(routes.indexes[0].index.tel).toBe('+7 (495) 123-45-67')
    // Products are read by their row (content/route-rows.ts), with their state from the tree.
    expect(routes.byUrl.get('/structure/product')).toBeUndefined()
    expect(await service.entryAt('/structure/product')).toMatchObject({ typeId: 'product', state: 'public' })
    const parent = (await service.entryAt('/structure/product'))!.parentId!
    expect(routes.byId.get(parent)?.typeId).toBe('section')
  })

  it('orders children by sort', async () => {
    const routes = await service.routes()
    const catalogue = routes.byUrl.get('/structure/')!
    const sorts = (routes.children.get(catalogue.id) ?? []).map((c) => c.sort)
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b))
  })

  it('keeps the loaded map until its time runs out or it is invalidated', async () => {
    const first = await service.routes()
    expect(await service.routes()).toBe(first)
    service.invalidate()
    const second = await service.routes()
    expect(second).not.toBe(first)
  })

  it('serves an expired map while a fresh one loads, then the fresh one', async () => {
    const short = new ContentService(db, { ttlSeconds: 1, publicSettings: service.publicSettings })
    const first = await short.routes()
    ;(first as { loadedAt: number }).loadedAt = Date.now() - 5_000
    expect(await short.routes()).toBe(first) // stale, reload started
    await expect.poll(() => short.routes()).not.toBe(first)
  })
})

describe('resolving a URL', () => {
  it('resolves each screen kind', async () => {
    for (const [url, typeId] of [
      ['/', 'index'],
      ['/structure/', 'section'],
      ['/structure/product', 'product'],
      ['/politika', 'page'],
    ]) {
      const result = await service.pageOf(url)
      expect(result.kind).toBe('page')
      if (result.kind === 'page') expect(result.page.typeId).toBe(typeId)
    }
  })

  it('redirects the other trailing-slash variant and collapsed slashes to the record URL', async () => {
    expect(await service.pageOf('/structure')).toEqual({ kind: 'redirect', url: '/structure/' })
    expect(await service.pageOf('/structure/product/')).toEqual({ kind: 'redirect', url: '/structure/product' })
    expect(await service.pageOf('//structure//product')).toEqual({ kind: 'redirect', url: '/structure/product' })
  })

  it('answers missing for unknown and unpublished records and gone for withdrawn or deleted ones', async () => {
    expect(await service.pageOf('/nope')).toEqual({ kind: 'missing' })
    const id = await insertPage('/hidden')
    await db.updateTable('structure').set({ published: 0 }).where('id', '=', id).execute()
    expect(await service.pageOf('/hidden')).toEqual({ kind: 'missing' })
    await db.updateTable('structure').set({ published: 1, status: 410 }).where('id', '=', id).execute()
    service.invalidate()
    expect(await service.pageOf('/hidden')).toEqual({ kind: 'gone' })
    await db.insertInto('goneUrl').values({ urlFull: '/old-page', goneAt: now() }).execute()
    expect(await service.pageOf('/old-page')).toEqual({ kind: 'gone' })
  })

  it('finds a record added straight to the database without waiting for the map to expire', async () => {
    await service.routes()
    await insertPage('/novinki')
    const result = await service.pageOf('/novinki')
    expect(result.kind).toBe('page')
  })

  it('builds breadcrumbs from the root to the record', async () => {
    const result = await service.pageOf('/structure/power-tools/jigsaw')
    expect(result.kind === 'page' && result.page.breadcrumbs.map((b) => b.url)).toEqual([
      '/',
      '/structure/',
      '/structure/power-tools/',
      '/structure/power-tools/jigsaw',
    ])
  })
})

describe('the owning index record', () => {
  it('is the index record with the longest urlFull prefix of the path', async () => {
    const landing = await insertPage('/promo/', 'index')
    await db
      .insertInto('siteIndex')
      .values({
        structureId: landing,
        logo: null,
        tel: '8 800 000-00-00',
        telText: null,
        description: null,
        copyright: null,
      })
      .execute()
    service.invalidate()
    expect((await service.getSite('/promo/akciya'))?.tel).toBe('8 800 000-00-00')
    expect((await service.getSite('/promo/'))?.tel).toBe('8 800 000-00-00')
    expect((await service.getSite('/promotion'))?.tel).toBe('+7 (495) 123-45-67')
    expect((await service.getSite('/structure/product'))?.tel).toBe('+7 (495) 123-45-67')
    // A page comes with its site, the same one, from the one call.
    const landingPage = await service.pageOf('/promo/')
    expect(landingPage.kind === 'page' && landingPage.site).toEqual(await service.getSite('/promo/'))
    const product = await service.pageOf('/structure/product')
    expect(product.kind === 'page' && product.site?.tel).toBe('+7 (495) 123-45-67')
  })

  it('lists catalogue sections in the menu and text pages in the footer', async () => {
    const site = await service.getSite('/')
    expect(site?.menu.map((m) => m.title)).toEqual([
      'Каталог',
      'Электроинструмент',
      'Садовая техника',
      'Ручной инструмент',
      'Крепёж',
    ])
    expect(site?.consentUrl).toBe('/soglasie')
    expect(site?.policyUrl).toBe('/politika')
  })
})

describe('the demo content', () => {
  it('is created once: a second seed finds content and adds nothing', async () => {
    const before = await db.selectFrom('structure').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(
      await seedDemoContent(new WriteDoor(db, { indexNowOrigin: null }), storeInFolder(path.join(dir, 'media'))),
    ).toBe(false)
    const after = await db.selectFrom('structure').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('has 3 sections of at least 6 distinct products with their own images (one without: its placeholder shows), 3 slides and 4 advantages', async () => {
    const home = await service.pageOf('/')
    if (home.kind !== 'page' || home.page.typeId !== 'index') throw new Error('no home')
    expect(home.page.slides).toHaveLength(3)
    expect(home.page.advantages).toHaveLength(4)
    // The home page shows the demo's featured products (12 at most); the sections show every one.
    expect(home.page.featured.length).toBeGreaterThan(0)
    expect(home.page.featured.length).toBeLessThanOrEqual(12)
    const catalogue = await service.pageOf('/structure/')
    if (catalogue.kind !== 'page' || catalogue.page.typeId !== 'section') throw new Error('no catalogue')
    expect(catalogue.page.sections.length).toBeGreaterThanOrEqual(3)
    const all = []
    for (const { url } of catalogue.page.sections) {
      const section = await service.pageOf(url)
      if (section.kind !== 'page' || section.page.typeId !== 'section') throw new Error(`no section ${url}`)
      expect(section.page.products.length).toBeGreaterThanOrEqual(6)
      all.push(...section.page.products)
    }
    expect(new Set(all.map((p) => p.title)).size).toBe(all.length)
    expect(new Set(all.map((p) => p.article)).size).toBe(all.length)
    // The demo's heat gun has no photo (decision 044's placeholder); every other image is stored.
    expect(all.filter((p) => p.image === null).map((p) => p.title)).toEqual(['Фен строительный 2000 Вт'])
    for (const p of all) if (p.image !== null) expect(fs.existsSync(path.join(dir, 'media', p.image))).toBe(true)
  })
})
