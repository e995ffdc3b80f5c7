// Pages rendered by the real app (Vike dev middleware + SQLite), through inject().
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertRecord } from '../../server/content/structure-store'
import { formatMoney } from '../../src/format/money'
import { buildTestApp, decodeEntities, titleOf, type TestApp } from '../helpers/build-test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]))
}

async function addRecord(values: {
  parentUrl?: string
  typeId: string
  title: string
  urlFull: string
  status?: number | null
  published?: number
  content?: string
}) {
  const parent = values.parentUrl
    ? await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', values.parentUrl)
        .executeTakeFirstOrThrow()
    : null
  // Through the write door, as every writer does: other processes see the change by its version.
  const id = await t.app.writeDoor.write((unit) =>
    insertRecord(unit, {
      parentId: parent?.id ?? null,
      typeId: values.typeId,
      title: values.title,
      urlFull: values.urlFull,
      sort: 100,
      published: values.published ?? 1,
      status: values.status ?? null,
      content: values.content ?? null,
    }),
  )
  return id
}

/** GET until the status is the one expected: another writer's change shows within the 1 s check. */
async function getEventually(url: string, status: number) {
  const deadline = Date.now() + 3000
  for (;;) {
    const res = await get(url)
    if (res.statusCode === status || Date.now() > deadline) return res
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the home page', () => {
  it('renders the index record in Russian with slider, advantages and priced product cards', async () => {
    const res = await get('/')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    const html = res.body
    expect(html).toMatch(/<html[^>]*lang="ru"/)
    expect(titleOf(html)).toBe('ТехноМастер — электроинструмент и садовая техника')
    expect(html).toContain('class="slider"')
    expect(html).toContain('Почему выбирают нас')
    // A bounded selection: a few of each section, 12 in all (docs/decisions/031-sections-and-scale.md)
    const cards = (html.match(/class="card"/g) ?? []).length
    expect(cards).toBeGreaterThan(0)
    expect(cards).toBeLessThanOrEqual(12)
    expect(html).toContain(formatMoney(1299000))
    expect(html).toContain('href="tel:+74951234567"')
    expect(html).toContain('Ежедневно с 9:00 до 21:00')
    expect(html).toContain('© 2026 ООО «ТехноМастер»')
    expect(html).toContain('Оставить заявку')
  })

  it('describes the organisation for crawlers with absolute URLs from PUBLIC_URL', async () => {
    const html = (await get('/')).body
    expect(html).toContain('<link rel="canonical" href="https://shop.example.ru/"')
    const og = /<meta property="og:image" content="https:\/\/shop\.example\.ru(\/og-image\/demo\/[^"]+)"/.exec(html)
    expect(og).not.toBeNull()
    expect(html).toContain('<meta property="og:image:width" content="1200"/>')
    expect(html).toContain('<meta property="og:image:height" content="630"/>')
    // A raster of exactly that size, whatever the source (the demo images are SVG), made once.
    const image = await t.app.inject({ method: 'GET', url: og![1] })
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/jpeg'])
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 })
    const again = await t.app.inject({ method: 'GET', url: og![1] })
    expect(again.rawPayload.equals(image.rawPayload)).toBe(true)
    for (const bad of ['/og-image/../site.db', '/og-image/demo/nothing.svg', '/og-image/etc/passwd']) {
      expect((await t.app.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404)
    }
    expect(html).toMatch(/<meta name="description" content="[^"]+"/)
    const org = jsonLd(html).find((x) => x['@type'] === 'Organization')
    expect(org).toMatchObject({ name: expect.any(String), telephone: '+74951234567', url: 'https://shop.example.ru/' })
  })

  it('gives the logo its 258×102 box and loads it eagerly, other images lazily', async () => {
    const html = (await get('/')).body
    expect(html).toMatch(
      /<img[^>]*src="\/media\/demo\/logo-[^"]+"[^>]*width="258"[^>]*height="102"[^>]*loading="eager"/,
    )
    expect(html).toMatch(/<img[^>]*loading="lazy"/)
  })
})

describe('catalogue pages', () => {
  it('serves the catalogue root section with breadcrumbs and sub-sections', async () => {
    const res = await get('/structure/')
    expect(res.statusCode).toBe(200)
    expect(titleOf(res.body)).toBe('Каталог')
    expect(res.body).toContain('class="breadcrumbs"')
    for (const section of ['Электроинструмент', 'Садовая техника', 'Ручной инструмент'])
      expect(res.body).toContain(section)
    const crumbs = jsonLd(res.body).find((x) => x['@type'] === 'BreadcrumbList')
    expect(crumbs.itemListElement.map((i: any) => i.name)).toEqual(['Главная', 'Каталог'])
  })

  it('serves the product page with article, price and a Product offer in rubles', async () => {
    const res = await get('/structure/product')
    expect(res.statusCode).toBe(200)
    expect(titleOf(res.body)).toBe('Дрель-шуруповёрт аккумуляторная 18 В')
    expect(res.body).toContain('ЭИ-1001')
    expect(res.body).toContain(formatMoney(1299000))
    const product = jsonLd(res.body).find((x) => x['@type'] === 'Product')
    expect(product.offers).toMatchObject({ '@type': 'Offer', price: '12990', priceCurrency: 'RUB' })
    // The gallery, main image first (decision 025)
    expect(product.image[0]).toMatch(/^https:\/\/shop\.example\.ru\/media\//)
    const crumbs = jsonLd(res.body).find((x) => x['@type'] === 'BreadcrumbList')
    expect(crumbs.itemListElement.at(-1)).toMatchObject({
      name: 'Дрель-шуруповёрт аккумуляторная 18 В',
      item: 'https://shop.example.ru/structure/product',
    })
  })

  it('serves a text page', async () => {
    const res = await get('/soglasie')
    expect(res.statusCode).toBe(200)
    expect(titleOf(res.body)).toBe('Согласие на обработку персональных данных')
    expect(res.body).toContain('<p>Цель обработки — связь со мной для уточнения деталей заявки')
  })

  it('redirects the other trailing-slash variant to the record’s own urlFull, keeping the query', async () => {
    const a = await get('/structure?utm_source=ya')
    expect(a.statusCode).toBe(301)
    expect(a.headers.location).toBe('/structure/?utm_source=ya')
    const b = await get('/structure/product/')
    expect(b.statusCode).toBe(301)
    expect(b.headers.location).toBe('/structure/product')
  })

  it('gives a redirect a Russian body with a link and no script', async () => {
    const res = await get('/structure')
    expect(res.statusCode).toBe(301)
    expect(res.body).toContain('Страница переехала: <a href="/structure/">/structure/</a>')
    expect(res.body).not.toContain('<script')
  })
})

describe('/favicon.ico', () => {
  it('is the site icon as a PNG, not a text page', async () => {
    const res = await get('/favicon.ico')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG')
  })
})

describe('missing and withdrawn pages', () => {
  it('answers an unknown URL with 404, the exact Russian texts and noindex', async () => {
    const res = await get('/no/such/page')
    expect(res.statusCode).toBe(404)
    expect(titleOf(res.body)).toBe('Ошибка 404. Такой страницы нет')
    expect(res.body).toContain('Страницы не существует:(')
    expect(res.body).toContain('Возможно, когда-то она была, но сейчас ее нет.')
    expect(res.body).toContain('<meta name="robots" content="noindex"')
    expect(res.body).toMatch(/class="error-view__icon"/)
    // The layout still shows the site's header and footer
    expect(res.body).toContain('href="tel:+74951234567"')
    // …and the view offers a way on: home and the catalogue.
    const links = /<nav class="error-view__links"[^>]*>([\s\S]*?)<\/nav>/.exec(res.body)?.[1] ?? ''
    expect([...links.matchAll(/href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]])).toEqual([
      ['/', 'На главную'],
      ['/structure/', 'Каталог'],
    ])
  })

  it('has no pageContext.json for public pages, which are HTML only', async () => {
    for (const url of [
      '/no/such/page/index.pageContext.json',
      '/index.pageContext.json',
      '/structure/index.pageContext.json',
    ]) {
      const res = await get(url)
      expect([res.statusCode, res.json().error.code], url).toEqual([404, 'not_found'])
    }
  })

  it('answers 410 with only the icon and the code for a withdrawn product', async () => {
    await addRecord({
      parentUrl: '/structure/',
      typeId: 'product',
      title: 'Снятый товар',
      urlFull: '/structure/withdrawn',
      status: 410,
    })
    const res = await get('/structure/withdrawn')
    expect(res.statusCode).toBe(410)
    expect(res.body).toContain('data-status="410"')
    expect(res.body).not.toContain('Страницы не существует:(')
    expect(res.body).toContain('<meta name="robots" content="noindex"')
  })

  it('answers 404 for an unpublished record', async () => {
    await addRecord({
      parentUrl: '/structure/',
      typeId: 'product',
      title: 'Черновик',
      urlFull: '/structure/draft',
      published: 0,
    })
    expect((await get('/structure/draft')).statusCode).toBe(404)
  })
})

describe('content from the database', () => {
  it('serves a record added to the database without a restart', async () => {
    expect((await get('/akcii')).statusCode).toBe(404)
    await addRecord({
      parentUrl: '/',
      typeId: 'page',
      title: 'Акции месяца',
      urlFull: '/akcii',
      content: 'Скидки до 20%.',
    })
    const res = await getEventually('/akcii', 200)
    expect(res.statusCode).toBe(200)
    expect(titleOf(res.body)).toBe('Акции месяца')
  })

  it('keeps hostile record text inert everywhere, JSON-LD included', async () => {
    const hostile = '</script><script>alert(1)</script>"><img src=x onerror=alert(2)>'
    const id = await addRecord({
      parentUrl: '/structure/',
      typeId: 'product',
      title: hostile,
      urlFull: '/structure/hostile',
      content: hostile,
    })
    await t.app.db
      .insertInto('product')
      .values({ structureId: id, image: null, article: hostile, price: 100, description: hostile })
      .execute()
    const res = await get('/structure/hostile')
    expect(res.statusCode).toBe(200)
    expect(res.body).not.toContain('<script>alert(1)</script>')
    expect(res.body).not.toMatch(/<img src=x onerror/i)
    expect(decodeEntities(titleOf(res.body) ?? '')).toBe(hostile)
    const product = jsonLd(res.body).find((x) => x['@type'] === 'Product')
    expect(product.name).toBe(hostile)
  })

  it('shows the header of the index record that owns the URL', async () => {
    const landing = await addRecord({ parentUrl: '/', typeId: 'index', title: 'Сервисный центр', urlFull: '/service/' })
    await t.app.db
      .insertInto('siteIndex')
      .values({
        structureId: landing,
        logo: null,
        tel: '8 (800) 555-35-35',
        telText: 'Сервис',
        description: null,
        copyright: '© Сервис',
      })
      .execute()
    await addRecord({ parentUrl: '/service/', typeId: 'page', title: 'Ремонт', urlFull: '/service/remont' })
    t.app.content.invalidate()
    const service = await get('/service/remont')
    expect(service.statusCode).toBe(200)
    expect(service.body).toContain('href="tel:+78005553535"')
    expect(service.body).not.toContain('href="tel:+74951234567"')
    const home = await get('/structure/')
    expect(home.body).toContain('href="tel:+74951234567"')
  })
})

describe('crawler files', () => {
  it('lists published pages in the sitemap with absolute URLs and points robots.txt at it', async () => {
    const sitemap = await get('/sitemap.xml')
    expect(sitemap.statusCode).toBe(200)
    expect(sitemap.body).toContain('<loc>https://shop.example.ru/structure/product</loc>')
    expect(sitemap.body).not.toContain('/structure/draft')
    const robots = await get('/robots.txt')
    expect(robots.body).toContain('Sitemap: https://shop.example.ru/sitemap.xml')
  })
})
