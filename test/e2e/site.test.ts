// The site in a real browser: islands hydrated, page loads, scroll restoration, error view, menu.
import type { Page } from 'playwright-core'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'

let page: Page
let errors: string[]

const suite = browserSuite()
afterEach(async () => {
  await page?.context().close()
})

let dataRequests: string[]

async function open(path: string, viewport = { width: 1280, height: 800 }) {
  // The page opened before is done with: left open, its hydrated page would keep running beside
  // the next ones until the file ends.
  await page?.context().close()
  const context = await suite.browser.newContext({ viewport, locale: 'ru-RU' })
  page = await context.newPage()
  errors = watchErrors(page)
  dataRequests = []
  page.on('request', (request) => {
    if (request.url().includes('pageContext.json')) dataRequests.push(request.url())
  })
  await page.goto(suite.server.url + path)
  await waitForVike(page, path)
}

/** Clicks a link added to the page, as a link in some record's text would be. */
async function clickNewLink(href: string) {
  await page.evaluate((target) => {
    const a = document.createElement('a')
    a.href = target
    a.textContent = target
    document.querySelector('main')!.append(a)
    a.click()
  }, href)
}

describe('the site in a browser', () => {
  it('renders and hydrates the home page with no console errors', async () => {
    await open('/')
    await expect(page.title()).resolves.toBe('ТехноМастер — электроинструмент и садовая техника')
    // A bounded selection (docs/decisions/031-sections-and-scale.md): a few of each section, 12 at most.
    expect(await page.locator('.card').count()).toBeGreaterThanOrEqual(4)
    expect(await page.locator('.card').count()).toBeLessThanOrEqual(12)
    expect(await page.locator('header a[href^="tel:"]').textContent()).toBe('+7 (495) 123-45-67')
    expect(errors).toEqual([]) // a hydration mismatch would be a console error
    expect(dataRequests).toEqual([]) // islands take their props from the HTML
  })

  it('names each product card link once, by the product title (a screen reader does not read it twice)', async () => {
    await open('/')
    const link = page.locator('.card__link').first()
    const title = (await link.locator('.card__title').textContent())!.trim()
    await expect(page.getByRole('link', { name: title, exact: true }).first().getAttribute('href')).resolves.toBe(
      await link.getAttribute('href'),
    )
    // Lighthouse's image-redundant-alt: no image inside a link repeats the link's own text.
    const redundant = await page.$$eval('a img[alt]:not([alt=""])', (images) =>
      images
        .filter((img) => img.closest('a')!.textContent.includes(img.getAttribute('alt')!))
        .map((img) => img.getAttribute('alt')),
    )
    expect(redundant).toEqual([])
  })

  it('loads a product page from a card with its own head, and restores the scroll position on back', async () => {
    await open('/')
    const card = page.locator('.card__link').last() // the home page shows 12 at most (decision 031)
    await card.scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollBy(0, 150))
    const scrolled = await page.evaluate(() => window.scrollY)
    expect(scrolled).toBeGreaterThan(300)
    const href = await card.getAttribute('href')
    await card.click()
    await waitForVike(page, href!)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    await expect(page.locator('h1').textContent()).resolves.toBeTruthy()
    // The head describes the new page: canonical link and a Product in JSON-LD
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${suite.server.url}${href}`)
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents()
    expect(ld.map((t) => JSON.parse(t)['@type'])).toContain('Product')
    await page.goBack()
    await waitForVike(page, '/')
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 5, scrolled, { timeout: 5000 })
    expect(dataRequests).toEqual([]) // full pages: no pageContext.json round trips
    expect(errors).toEqual([])
  })

  it('fetches a page while the pointer rests on its link, so the click finds it ready', async () => {
    await open('/')
    const prefetched: string[] = []
    page.on('request', (request) => {
      if (/prefetch/.test(request.headers()['sec-purpose'] ?? '')) prefetched.push(new URL(request.url()).pathname)
    })
    const card = page.locator('.card__link').first()
    const href = await card.getAttribute('href')
    await card.hover()
    await expect.poll(() => prefetched, { timeout: 5000 }).toContain(href)
    expect(errors).toEqual([]) // the rules pass the Content-Security-Policy
  })

  it('follows the menu to sections whose URL ends with a slash', async () => {
    await open('/structure/product')
    await page.locator('.nav__list a[href="/structure/"]').click()
    await waitForVike(page, '/structure/')
    expect(await page.locator('h1').textContent()).toBe('Каталог')
    expect(await page.locator('.nav__list a[aria-current="page"]').getAttribute('href')).toBe('/structure/')
    await page.locator('.subsections a[href="/structure/garden/"]').click()
    await waitForVike(page, '/structure/garden/')
    expect(await page.locator('h1').textContent()).toBe('Садовая техника')
    expect(page.url()).toBe(`${suite.server.url}/structure/garden/`)
    expect(errors).toEqual([])
  })

  it('shows the error view, with the working header, after following a link to a missing URL', async () => {
    await open('/structure/')
    const response = page.waitForResponse((r) => r.url().endsWith('/structure/no-such-product'))
    await clickNewLink('/structure/no-such-product')
    expect((await response).status()).toBe(404)
    await page.locator('text=Страницы не существует:(').waitFor({ timeout: 10_000 })
    await waitForVike(page, '/structure/no-such-product')
    expect(await page.title()).toBe('Ошибка 404. Такой страницы нет')
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex')
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0)
    expect(await page.locator('header a[href^="tel:"]').count()).toBe(1)
    // The header's islands work on the error view too.
    await page.locator('header [data-lead-button]').click()
    await page.getByRole('dialog').getByLabel('Ваше имя').waitFor()
  })

  it('keeps a first load with status 410 on the error view after hydration', async () => {
    const db = new Database(suite.server.dbPath)
    const parent = db.prepare("select id from structure where urlFull = '/structure/'").get() as { id: number }
    const stamp = new Date().toISOString()
    db.prepare(
      `insert into structure (parentId, typeId, title, urlFull, sort, published, status, createdAt, updatedAt)
      values (?, 'product', 'Снят с продажи', '/structure/old-model', 99, 1, 410, ?, ?)`,
    ).run(parent.id, stamp, stamp)
    db.close()
    const context = await suite.browser.newContext()
    page = await context.newPage()
    const response = await page.goto(suite.server.url + '/structure/old-model')
    expect(response?.status()).toBe(410)
    await waitForVike(page, '/structure/old-model') // every island has committed
    expect(await page.locator('.error-view[data-status="410"]').count()).toBe(1)
  })

  it('reloads the page once, never in a loop, when a lazy chunk fails to load (a redeploy removed it)', async () => {
    const firstScripts = new Set<string>()
    await open('/')
    let documentLoads = 0
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documentLoads++
    })
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))
    for (const url of loaded) firstScripts.add(url)
    // Every chunk the first page did not load is gone: the lead form's, which the button fetches.
    await page.route(/\/assets\/chunks\//, (route) =>
      firstScripts.has(route.request().url()) ? route.continue() : route.abort(),
    )
    await page.locator('header [data-lead-button]').click()
    await page.waitForEvent('load')
    await waitForVike(page, '/')
    expect(documentLoads).toBe(1)
    // The site's own handler of a failed chunk runs first; this one, added after it, tells when it
    // has decided. A reload it asked for would have stamped the time again.
    const reloadStamp = () => page.evaluate(() => sessionStorage.getItem('vitrina:reloaded-after-preload-error'))
    const stamped = await reloadStamp()
    const decided = page.evaluate(
      () =>
        new Promise<void>((resolve) => window.addEventListener('vite:preloadError', () => resolve(), { once: true })),
    )
    await page.locator('header [data-lead-button]').click()
    await decided
    expect(await reloadStamp()).toBe(stamped)
    expect(documentLoads).toBe(1) // the second failure within a minute does not reload again
    expect(await page.locator('.card').count()).toBeGreaterThan(0)
  })

  // One test per page: ten axe runs in one test outgrew the 30 s limit on a busy 2-core machine.
  it.each(['/', '/structure/', '/structure/krepezh/', '/structure/product', '/politika', '/no-such-page'])(
    'has no serious or critical accessibility violations on %s, desktop and phone',
    async (path) => {
      const found: string[] = []
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 375, height: 740 },
      ]) {
        await open(path, viewport)
        const { violations } = await wcagScan(page)
        for (const v of violations) {
          if (v.impact === 'serious' || v.impact === 'critical')
            found.push(`${path} @${viewport.width}: ${v.id} (${v.nodes[0]?.target.join(' ')})`)
        }
      }
      expect(found).toEqual([])
    },
  )

  it('opens and closes the menu with its toggle on a phone', async () => {
    await open('/', { width: 375, height: 740 })
    const toggle = page.locator('.nav__toggle')
    const list = page.locator('.nav__list')
    await expect(list.isVisible()).resolves.toBe(false)
    await toggle.click()
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true')
    await expect(list.isVisible()).resolves.toBe(true)
    await toggle.click()
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false')
    await expect(list.isVisible()).resolves.toBe(false)
  })

  it('glides to an anchor on another page instead of jumping', async () => {
    await open('/structure/')
    // Samples the scroll position in the next document from its first frame on.
    await page.addInitScript(() => {
      const ys: number[] = ((window as any).scrollSamples = [])
      const tick = () => {
        ys.push(window.scrollY)
        requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    })
    await clickNewLink('/#advantages-title')
    await page.waitForFunction(() => location.pathname === '/' && location.hash === '#advantages-title')
    // Settled: the title is at the top of the viewport, under the sticky header.
    await page.waitForFunction(() => {
      const ys: number[] = (window as any).scrollSamples
      return ys.length > 10 && ys.at(-1)! > 0 && ys.slice(-10).every((y) => y === ys.at(-1))
    })
    const ys: number[] = await page.evaluate(() => (window as any).scrollSamples)
    const final = ys.at(-1)!
    expect(ys.some((y) => y > 0 && y < final)).toBe(true) // positions in between: a glide
    expect(errors).toEqual([])
  })

  for (const width of [360, 390, 1366]) {
    it(`fits every word in its box and scrolls nothing sideways at ${width} px`, async () => {
      for (const path of ['/', '/structure/', '/structure/power-tools/', '/structure/product']) {
        await open(path, { width, height: 800 })
        const overflow = await page.evaluate(() => {
          const wide = document.documentElement.scrollWidth > window.innerWidth ? ['page'] : []
          const boxes = document.querySelectorAll<HTMLElement>(
            'h1, h2, h3, .card__title, .subsections__title, .nav__list a, .button, .nav__toggle',
          )
          const clipped = [...boxes]
            .filter((el) => el.offsetParent !== null && !el.closest('.visually-hidden'))
            .filter((el) => el.scrollWidth > el.clientWidth + 1)
            .map((el) => el.textContent)
          return [...wide, ...clipped]
        })
        expect(overflow, path).toEqual([])
        // The menu toggle and the lead button stay on one line (the header does not jump).
        const lineHeights = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('header .nav__toggle, header [data-lead-button]')]
            .filter((el) => el.offsetParent !== null)
            .map((el) => el.getBoundingClientRect().height),
        )
        for (const height of lineHeights) expect(height, path).toBeLessThanOrEqual(48)
        if (path === '/structure/') {
          // The catalogue's section tiles share the row instead of leaving most of it empty.
          const used = await page.evaluate(() => {
            const list = document.querySelector('.subsections')!
            const tiles = [...list.children].map((li) => li.getBoundingClientRect())
            const row = tiles.filter((r) => r.top === tiles[0].top)
            return (row.at(-1)!.right - row[0].left) / list.getBoundingClientRect().width
          })
          expect(used, `${path} at ${width}`).toBeGreaterThan(0.9)
        }
      }
    })
  }

  it('changes only the address for a same-path link changing a parameter the page does not read', async () => {
    await open('/structure/')
    const requests: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'document' || r.url().includes('pageContext.json')) requests.push(r.url())
    })
    await clickNewLink('/structure/?ref=promo')
    // The click's handler changed the address itself: a page load would have been asked for first.
    await page.waitForFunction(() => location.search === '?ref=promo')
    expect(requests).toEqual([])
  })
})
