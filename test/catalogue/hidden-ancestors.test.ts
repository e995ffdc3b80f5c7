// One visibility rule, ancestors included (issue #37 item 3), walked as a visitor and a crawler see
// the site: a structure record is public only while it and every record above it is published and
// not withdrawn. On the demo shop, on SQLite and PostgreSQL, a section is hidden at each level (the
// issue's subsection moved under a section that is then made a draft, the catalogue itself, a leaf
// section, a withdrawn one under a draft one) and every public surface is read: each page and its
// breadcrumbs (HTML and JSON-LD), the menu, the home page's featured products, the section tiles and
// cards, search, the sitemap, the Yandex feed and the model API; IndexNow's queue says which URLs
// were announced. Then the section is published again and everything comes back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { startHttpReceiver, type HttpReceiver } from '../helpers/receivers'
import { parseYml, ymlProblems } from '../helpers/yml-rules'

const PUBLIC_URL = 'https://shop.example.ru'

const CATALOGUE = '/structure/'
const POWER_TOOLS = '/structure/power-tools/'
const GARDEN = '/structure/garden/'
const HAND_TOOLS = '/structure/hand-tools/'

interface Row {
  readonly id: number
  readonly parentId: number | null
  readonly typeId: string
  readonly title: string
  readonly urlFull: string
}

/** Hidden records by id, with what their URLs answer: 404 (a draft) or 410 (withdrawn). */
type Hidden = Map<number, 404 | 410>

const hiding = (rows: readonly Row[], status: 404 | 410, into: Hidden = new Map()): Hidden => {
  for (const row of rows) into.set(row.id, status)
  return into
}

const sorted = (items: Iterable<string>) => [...items].sort()

/**
 * Every record but products, and the first two products of each section (the product pages of a
 * section share their trail and menu): what a walk reads page by page, to keep it quick.
 */
function sampled(rows: readonly Row[]): Row[] {
  const perSection = new Map<number | null, number>()
  return rows.filter((row) => {
    if (row.typeId !== 'product') return true
    const seen = perSection.get(row.parentId) ?? 0
    perSection.set(row.parentId, seen + 1)
    return seen < 2
  })
}

/** The breadcrumbs a page shows and the ones its JSON-LD gives crawlers: title and path of each. */
function breadcrumbsOf(body: string): { html: { title: string; url: string }[]; ld: { title: string; url: string }[] } {
  const nav = /<nav class="breadcrumbs"[^>]*>([\s\S]*?)<\/nav>/.exec(body)?.[1] ?? ''
  const html = [
    ...nav.matchAll(/<li>(?:<a href="([^"]*)">([^<]*)<\/a>|<span aria-current="page">([^<]*)<\/span>)<\/li>/g),
  ].map((m) => ({ url: decodeEntities(m[1] ?? ''), title: decodeEntities(m[2] ?? m[3]) }))
  const ld: { title: string; url: string }[] = []
  for (const m of body.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    const data = JSON.parse(m[1]) as { '@type': string; itemListElement?: { name: string; item: string }[] }
    if (data['@type'] !== 'BreadcrumbList') continue
    for (const item of data.itemListElement ?? []) {
      expect(item.item.startsWith(PUBLIC_URL)).toBe(true)
      ld.push({ title: item.name, url: item.item.slice(PUBLIC_URL.length) })
    }
  }
  return { html, ld }
}

/** The links of the header's menu. */
function menuOf(body: string): string[] {
  const list = /<ul class="nav__list"[^>]*>([\s\S]*?)<\/ul>/.exec(body)?.[1] ?? ''
  return [...list.matchAll(/href="([^"]*)"/g)].map((m) => decodeEntities(m[1]))
}

/** The links of a page's main part with the given class: product cards, section tiles. */
function linksOf(body: string, className: 'card__link' | 'subsections__link'): string[] {
  const main = body.slice(body.indexOf('<main'))
  return [...main.matchAll(new RegExp(`<a class="${className}" href="([^"]*)"`, 'g'))].map((m) => decodeEntities(m[1]))
}

const cardLinksOf = (body: string) => linksOf(body, 'card__link')

/** Product cards on one page of a section */
const SECTION_PAGE = 24
/** A case walks the site several times: room for a busy machine */
const WALK_MS = 120_000

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`a hidden ancestor on ${dialect.name}`, { timeout: WALK_MS }, () => {
    let t: TestApp
    let yandex: HttpReceiver
    /** The feed's offers while everything is public: offer id → its product's id (a variant's is its group_id) */
    let feedAtStart: Map<string, number>
    /** Product ids the home page features (decision 024) */
    let featured: Set<number>

    const get = (url: string) => t.app.inject({ method: 'GET', url })
    const api = (path: string, query: unknown) => get(`${path}?${stringifyQuery({ query, ttl: 120 })}`)

    async function rows(): Promise<Row[]> {
      return t.app.db
        .selectFrom('structure')
        .select(['id', 'parentId', 'typeId', 'title', 'urlFull'])
        .orderBy('id')
        .execute()
    }

    async function recordAt(url: string): Promise<Row> {
      const row = (await rows()).find((r) => r.urlFull === url)
      if (!row) throw new Error(`no record at ${url}`)
      return row
    }

    /** The record at `url` and every record under it, by the tree (not by URL). */
    async function subtree(url: string): Promise<Row[]> {
      const all = await rows()
      const root = all.find((r) => r.urlFull === url)!
      const out = [root]
      for (let i = 0; i < out.length; i++) out.push(...all.filter((r) => r.parentId === out[i].id))
      return out
    }

    /** PATCH /api/structure as the back office saves a record. */
    async function patch(url: string, values: Record<string, unknown>): Promise<void> {
      const { id } = await recordAt(url)
      const body = multipartBody({ data: JSON.stringify({ id, ...values }) })
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/structure',
        payload: body.payload,
        headers: { ...body.headers, ...AUTH },
      })
      expect(res.statusCode, res.body).toBe(200)
    }

    /** «Перенести» in the back office; returns the record's URL afterwards. */
    async function move(url: string, parentUrl: string, keepUrl: boolean): Promise<string> {
      const [{ id }, parent] = [await recordAt(url), await recordAt(parentUrl)]
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/content/${id}/move`,
        payload: { parentId: parent.id, keepUrl },
        headers: AUTH,
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data.urlFull
    }

    /** The paths IndexNow was told of since the last call (the worker is stopped: they wait in the queue). */
    async function announced(): Promise<string[]> {
      const queued = await t.app.db.selectFrom('indexNowUrl').select('url').execute()
      await t.app.db.deleteFrom('indexNowUrl').execute()
      return sorted(
        queued.map((r) => {
          expect(r.url.startsWith(PUBLIC_URL)).toBe(true)
          return decodeURI(r.url.slice(PUBLIC_URL.length))
        }),
      )
    }

    async function searchLinks(text: string): Promise<string[]> {
      const res = await get(`/poisk?q=${encodeURIComponent(text)}`)
      expect(res.statusCode).toBe(200)
      return cardLinksOf(res.body)
    }

    async function articles(): Promise<Map<number, string>> {
      const parts = await t.app.db.selectFrom('product').select(['structureId', 'article']).execute()
      return new Map(parts.map((p) => [p.structureId, p.article ?? '']))
    }

    /**
     * Walks every public surface and checks that exactly the records not in `hidden` are public,
     * and that each hidden record's URL answers its status.
     */
    async function expectSite(hidden: Hidden): Promise<void> {
      const all = await rows()
      const byId = new Map(all.map((r) => [r.id, r]))
      const shown = all.filter((r) => !hidden.has(r.id))
      const gone = all.filter((r) => hidden.has(r.id))
      const shownUrls = new Set(shown.map((r) => r.urlFull))
      const shownIds = new Set(shown.map((r) => r.id))
      const titleAt = new Map(shown.map((r) => [r.urlFull, r.typeId === 'index' ? 'Главная' : r.title]))

      // Each hidden record's own URL; a hidden section's without its trailing slash redirects nowhere.
      for (const row of sampled(gone)) {
        expect((await get(row.urlFull)).statusCode, row.urlFull).toBe(hidden.get(row.id))
        if (row.typeId === 'section') expect((await get(row.urlFull.slice(0, -1))).statusCode).toBe(hidden.get(row.id))
      }

      // The sitemap lists exactly the public records.
      const sitemap = await get('/sitemap.xml')
      expect(sitemap.statusCode).toBe(200)
      const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
        decodeURI(decodeEntities(m[1]).slice(PUBLIC_URL.length)),
      )
      expect(sorted(locs)).toEqual(sorted(shownUrls))

      // Every public page answers 200; none links to a hidden record, names a hidden product, or
      // carries a breadcrumb (HTML or JSON-LD) that is not a public record under its own title.
      const hiddenProducts = gone.filter((r) => r.typeId === 'product')
      for (const row of sampled(shown)) {
        const res = await get(row.urlFull)
        expect(res.statusCode, row.urlFull).toBe(200)
        const html = decodeEntities(res.body)
        for (const other of gone) {
          expect(html, `${row.urlFull} links ${other.urlFull}`).not.toContain(`"${other.urlFull}"`)
          expect(html, `${row.urlFull} links ${other.urlFull}`).not.toContain(`"${PUBLIC_URL}${other.urlFull}"`)
        }
        for (const product of hiddenProducts) {
          expect(html, `${row.urlFull} names ${product.title}`).not.toContain(product.title)
        }
        const crumbs = breadcrumbsOf(res.body)
        const trail = crumbs.html.slice(0, -1)
        if (row.typeId !== 'index') {
          expect(crumbs.html.at(-1), row.urlFull).toEqual({ url: '', title: row.title })
          expect(trail.length, row.urlFull).toBeGreaterThan(0)
        }
        if (row.typeId === 'product' || row.typeId === 'section') {
          expect(crumbs.ld, row.urlFull).toEqual([...trail, { url: row.urlFull, title: row.title }])
        }
        for (const crumb of [...trail, ...crumbs.ld]) {
          expect(shownUrls, `a breadcrumb of ${row.urlFull}`).toContain(crumb.url)
          expect(crumb.title, `a breadcrumb of ${row.urlFull}`).toBe(titleAt.get(crumb.url))
        }
        // A section's tiles are its public subsections; its cards its public products (one page of them).
        if (row.typeId === 'section') {
          const children = (typeId: string) =>
            shown.filter((r) => r.parentId === row.id && r.typeId === typeId).map((r) => r.urlFull)
          expect(sorted(linksOf(res.body, 'subsections__link')), row.urlFull).toEqual(sorted(children('section')))
          const products = children('product')
          const cards = cardLinksOf(res.body)
          if (products.length <= SECTION_PAGE) expect(sorted(cards), row.urlFull).toEqual(sorted(products))
          else expect(products, row.urlFull).toEqual(expect.arrayContaining(cards))
        }
      }

      // The menu: the public sections of the first two levels, the catalogue and its sections.
      const home = await get('/')
      const depthOf = (row: Row): number => (row.parentId === null ? 0 : depthOf(byId.get(row.parentId)!) + 1)
      const menuSections = shown.filter((r) => r.typeId === 'section' && depthOf(r) <= 2).map((r) => r.urlFull)
      expect(sorted(menuOf(home.body))).toEqual(sorted(menuSections))

      // The home page's featured products: the public ones; with none public, no card at all.
      const featuredShown = [...featured].filter((id) => shownIds.has(id)).map((id) => byId.get(id)!.urlFull)
      const shownProducts = shown.filter((r) => r.typeId === 'product')
      const homeCards = cardLinksOf(home.body)
      if (featuredShown.length > 0) expect(sorted(homeCards)).toEqual(sorted(featuredShown))
      else if (shownProducts.length === 0) expect(homeCards).toEqual([])
      for (const url of homeCards) expect(shownUrls).toContain(url)

      // The Yandex feed: valid, the public offers it had at the start at their URLs of now, the
      // public sections as its categories.
      const feedRes = await get('/feeds/yandex.xml')
      expect(feedRes.statusCode).toBe(200)
      expect(ymlProblems(feedRes.body, PUBLIC_URL)).toEqual([])
      const feed = parseYml(feedRes.body)
      expect(sorted(feed.offers.map((o) => o.id))).toEqual(
        sorted([...feedAtStart].filter(([, product]) => shownIds.has(product)).map(([offer]) => offer)),
      )
      for (const offer of feed.offers) {
        // A variant's offer (decision 043) is at its product's URL with ?v=<variant>.
        const page = `${PUBLIC_URL}${byId.get(Number(offer.groupId ?? offer.id))!.urlFull}`
        expect(offer.fields.url).toEqual([offer.groupId ? `${page}?v=${offer.id.split('v')[1]}` : page])
      }
      expect(sorted(feed.categories.map((c) => c.id))).toEqual(
        sorted(shown.filter((r) => r.typeId === 'section').map((r) => String(r.id))),
      )

      // The model API: the public records and their parts, nothing else; a hidden one by id is 404.
      const listed = await api('/api/many/structure', { take: 500, select: { id: true } })
      expect(listed.statusCode).toBe(200)
      expect(sorted(listed.json().data.map((r: { id: number }) => String(r.id)))).toEqual(
        sorted([...shownIds].map(String)),
      )
      const parts = await api('/api/many/product', { take: 500, select: { structureId: true } })
      expect(sorted(parts.json().data.map((r: { structureId: number }) => String(r.structureId)))).toEqual(
        sorted(shownProducts.map((r) => String(r.id))),
      )
      for (const model of ['productImages', 'productProperties']) {
        const list = await api(`/api/many/${model}`, { take: 500, select: { structureId: true } })
        expect(list.statusCode, model).toBe(200)
        const owners = new Set((list.json().data as { structureId: number }[]).map((r) => r.structureId))
        expect(owners.size > 0, model).toBe(shownProducts.length > 0)
        for (const id of owners) expect(shownIds, model).toContain(id)
      }
      for (const row of gone.slice(0, 3)) {
        expect((await api('/api/structure', { where: { id: row.id }, select: { id: true } })).statusCode).toBe(404)
      }
      const tree = await api('/api/structure', {
        where: { urlFull: '/' },
        select: { children: { select: { urlFull: true, children: { select: { urlFull: true } } } } },
      })
      for (const url of JSON.stringify(tree.json()).match(/"\/[^"]*"/g) ?? []) {
        expect(shownUrls).toContain(JSON.parse(url))
      }

      // Search: a product is found by its артикул while it is public, never while it is hidden.
      const articleOf = await articles()
      for (const row of sampled(all).filter((r) => r.typeId === 'product')) {
        const links = await searchLinks(articleOf.get(row.id)!)
        if (hidden.has(row.id)) expect(links, row.urlFull).not.toContain(row.urlFull)
        else expect(links, row.urlFull).toContain(row.urlFull)
      }
    }

    beforeAll(async () => {
      yandex = await startHttpReceiver()
      t = await dialect.build({
        ADMIN_TOKEN,
        YANDEX_FEED: 'true',
        INDEXNOW: 'on',
        INDEXNOW_KEY: 'hidden-ancestors-key-0123',
        INDEXNOW_URL: `${yandex.url}/indexnow`,
      })
      // The queued URLs stay in the queue, where the test reads them.
      await t.app.indexNow!.stop()
      const feed = parseYml((await get('/feeds/yandex.xml')).body)
      feedAtStart = new Map(feed.offers.map((o) => [o.id, Number(o.groupId ?? o.id)]))
      const featuredRows = await t.app.db
        .selectFrom('product')
        .select('structureId')
        .where('featured', '=', 1)
        .execute()
      featured = new Set(featuredRows.map((r) => r.structureId))
      await announced()
    })
    afterAll(async () => {
      await t?.close()
      await yandex?.close()
    })
    // Each case leaves the demo shop as it found it; this puts back what a failed one left behind,
    // through the same API, so one failure does not spread to the cases after it.
    afterEach(async () => {
      for (const [from, to] of [
        [`${HAND_TOOLS}garden/`, CATALOGUE],
        [`${GARDEN}pliers`, HAND_TOOLS],
      ]) {
        if ((await rows()).some((r) => r.urlFull === from)) await move(from, to, false)
      }
      const off = await t.app.db
        .selectFrom('structure')
        .select('urlFull')
        .where((eb) => eb.or([eb('published', '=', 0), eb('status', 'is not', null)]))
        .execute()
      for (const { urlFull } of off) await patch(urlFull, { published: true, status: null })
      await announced()
    })

    it('shows the whole demo shop while everything is published', async () => {
      // The demo gives the walk something to lose at each level.
      expect(featured.size).toBeGreaterThan(1)
      expect(feedAtStart.size).toBeGreaterThan(10)
      expect((await recordAt(HAND_TOOLS)).title).toBe('Ручной инструмент')
      expect((await recordAt(GARDEN)).title).toBe('Садовая техника')
      await expectSite(new Map())
    })

    it('hides a subsection moved under a section that becomes a draft (the issue), and brings it back', async () => {
      const garden = await subtree(GARDEN)
      const mower = garden.find((r) => r.urlFull === `${GARDEN}lawn-mower`)!
      expect(featured).toContain(mower.id)

      // Moved with a new URL: IndexNow hears of every old and new URL, and of both parents.
      const moved = await move(GARDEN, HAND_TOOLS, false)
      expect(moved).toBe(`${HAND_TOOLS}garden/`)
      const movedTo = (url: string) => url.replace(GARDEN, moved)
      expect(await announced()).toEqual(
        sorted([...garden.map((r) => r.urlFull), ...garden.map((r) => movedTo(r.urlFull)), CATALOGUE, HAND_TOOLS]),
      )
      const redirect = await get(mower.urlFull)
      expect(redirect.statusCode).toBe(301)
      expect(redirect.headers.location).toBe(movedTo(mower.urlFull))
      await expectSite(new Map())

      // The section above it becomes a draft: it, its products and the moved subsection are gone.
      await patch(HAND_TOOLS, { published: false })
      const hidden = await subtree(HAND_TOOLS)
      expect(hidden.map((r) => r.urlFull)).toEqual(expect.arrayContaining([moved, movedTo(mower.urlFull)]))
      expect(await announced()).toEqual(sorted([...hidden.map((r) => r.urlFull), CATALOGUE]))
      await expectSite(hiding(hidden, 404))
      // What the issue names, one by one.
      expect((await get(`${HAND_TOOLS}hammer`)).statusCode).toBe(404)
      expect((await get(movedTo(mower.urlFull))).statusCode).toBe(404)
      expect((await get(mower.urlFull)).statusCode, 'the old URL does not redirect to a hidden page').toBe(404)
      expect(await searchLinks('Газонокосилка бензиновая')).toEqual([])
      expect(await searchLinks('Молоток слесарный')).toEqual([])
      expect(cardLinksOf((await get('/')).body)).not.toContain(movedTo(mower.urlFull))
      const under = await api('/api/many/structure', { where: { parentId: (await recordAt(moved)).id } })
      expect(under.json().data).toEqual([])

      // Published again: everything is back where the move put it.
      await patch(HAND_TOOLS, { published: true })
      expect(await announced()).toEqual(sorted([...hidden.map((r) => r.urlFull), CATALOGUE]))
      await expectSite(new Map())
      expect(cardLinksOf((await get('/')).body)).toContain(movedTo(mower.urlFull))
      expect(await searchLinks('Газонокосилка бензиновая')).toEqual([movedTo(mower.urlFull)])

      // And back where it was, for the cases below.
      expect(await move(moved, CATALOGUE, false)).toBe(GARDEN)
      await announced()
    })

    it('hides the whole shop but the home page and the documents when the catalogue is a draft', async () => {
      await patch(CATALOGUE, { published: false })
      const hidden = await subtree(CATALOGUE)
      expect(await announced()).toEqual(sorted([...hidden.map((r) => r.urlFull), '/']))
      await expectSite(hiding(hidden, 404))
      expect(menuOf((await get('/')).body)).toEqual([])

      await patch(CATALOGUE, { published: true })
      await announced()
      await expectSite(new Map())
      expect(cardLinksOf((await get('/')).body).length).toBe(featured.size)
    })

    it('hides a leaf section’s products by the tree, whatever their URLs', async () => {
      const hidden = await subtree(POWER_TOOLS)
      // The demo's /structure/product lives in this section without its path.
      expect(hidden.map((r) => r.urlFull)).toContain('/structure/product')
      await patch(POWER_TOOLS, { published: false })
      await expectSite(hiding(hidden, 404))
      expect((await get('/structure/product')).statusCode).toBe(404)

      await patch(POWER_TOOLS, { published: true })
      await announced()
      await expectSite(new Map())
    })

    it('answers 410 under a withdrawn section and 404 under a draft one: the nearest hidden record decides', async () => {
      const powerTools = await subtree(POWER_TOOLS)
      const handTools = await subtree(HAND_TOOLS)
      const catalogue = await subtree(CATALOGUE)

      await patch(POWER_TOOLS, { status: 410 })
      await expectSite(hiding(powerTools, 410))
      expect((await get(`${POWER_TOOLS}screwdriver`)).statusCode).toBe(410)

      await patch(HAND_TOOLS, { published: false })
      await expectSite(hiding(handTools, 404, hiding(powerTools, 410)))

      // A draft catalogue above both: what is under it answers 404, but the withdrawn section and
      // its products keep answering 410 (a record's own state first, then the one above it).
      await patch(CATALOGUE, { published: false })
      await expectSite(hiding(powerTools, 410, hiding(catalogue, 404)))
      expect((await get(`${GARDEN}trimmer`)).statusCode).toBe(404)
      expect((await get(`${POWER_TOOLS}screwdriver`)).statusCode).toBe(410)

      // «Вернуть на сайт» and «Опубликовать»: every page, the sitemap, search, the feed and the home
      // page's featured products come back.
      await patch(CATALOGUE, { published: true })
      await patch(HAND_TOOLS, { published: true })
      await patch(POWER_TOOLS, { status: null, published: true })
      await announced()
      await expectSite(new Map())
      expect(sorted(cardLinksOf((await get('/')).body))).toEqual(
        sorted([...featured].map((id) => catalogue.find((r) => r.id === id)!.urlFull)),
      )
    })

    it('tells IndexNow of the records that became hidden or public again, and of nothing else', async () => {
      const garden = await subtree(GARDEN)
      const trimmer = garden.find((r) => r.urlFull === `${GARDEN}trimmer`)!
      // A draft product in the section: never public, never announced.
      await patch(trimmer.urlFull, { published: false })
      expect(await announced()).toEqual(sorted([trimmer.urlFull, GARDEN]))

      const turned = sorted([...garden.filter((r) => r !== trimmer).map((r) => r.urlFull), CATALOGUE])
      await patch(GARDEN, { published: false })
      expect(await announced()).toEqual(turned)
      await expectSite(hiding(garden, 404))

      // A product moved into the hidden section with a new URL: its old URL and its old section's
      // are announced, not the new URL, which was never public.
      const pliers = await recordAt(`${HAND_TOOLS}pliers`)
      expect(await move(pliers.urlFull, GARDEN, false)).toBe(`${GARDEN}pliers`)
      expect(await announced()).toEqual(sorted([pliers.urlFull, HAND_TOOLS]))
      expect((await get(`${GARDEN}pliers`)).statusCode).toBe(404)
      expect((await get(pliers.urlFull)).statusCode).toBe(404)
      // Moved back out: public at its URL again, announced with its section.
      expect(await move(`${GARDEN}pliers`, HAND_TOOLS, false)).toBe(pliers.urlFull)
      expect(await announced()).toEqual(sorted([pliers.urlFull, HAND_TOOLS]))
      expect((await get(pliers.urlFull)).statusCode).toBe(200)

      // Published again: the same URLs; the draft product stays a draft.
      await patch(GARDEN, { published: true })
      expect(await announced()).toEqual(turned)
      await expectSite(hiding([trimmer], 404))

      await patch(trimmer.urlFull, { published: true })
      expect(await announced()).toEqual(sorted([trimmer.urlFull, GARDEN]))
      await expectSite(new Map())
    })
  })
