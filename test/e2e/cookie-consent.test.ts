// The cookie notice in Chromium from a clean profile, on the production build, with METRIKA_ID set
// and the counter's script answered by a local stand-in (METRIKA_TAG_URL): nothing of the counter
// before a click, nothing after «Отклонить» (each watched for as long as «Принять» is given to
// load it), the counter at once after «Принять» with no CSP violation and no reload, its cookies
// removed on withdrawal from the footer, nothing with JavaScript off; every choice logged.
// axe-core over the notice at 360 and 1366 px, and the lead buttons stay clickable at 360 px
// while it is open.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { launchBrowser, waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'

const COUNTER_ID = 24242424
/** What the stand-in's tag.js does, as Metrika's does: sets its cookies, reports a hit. */
const TAG_JS = `(function(){document.cookie='_ym_uid=1700000000123456789; Max-Age=31536000; Path=/';
document.cookie='_ym_d=1700000000; Max-Age=31536000; Path=/';try{localStorage.setItem('_ym_retryReqs','{}')}catch(e){}
var q=(window.ym&&window.ym.a)||[];var id=q.length?q[0][0]:0;var origin=new URL(document.currentScript.src).origin;
new Image().src=origin+'/watch/'+id;fetch(origin+'/collect/'+id,{method:'POST',body:'hit'}).catch(function(){});
window.__counterLoaded=(window.__counterLoaded||0)+1})();`

let counter: http.Server
let counterOrigin: string
const counterRequests: string[] = []
let server: ProdServer
let browser: Browser
let context: BrowserContext | null = null

beforeAll(async () => {
  counter = http.createServer((request, response) => {
    counterRequests.push(`${request.method} ${request.url}`)
    response.setHeader('access-control-allow-origin', '*')
    if (request.url === '/metrika/tag.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(TAG_JS)
    } else {
      response.writeHead(200, { 'content-type': 'image/gif' }).end()
    }
  })
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve))
  counterOrigin = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`
  ensureBuild()
  browser = await launchBrowser()
  server = await startProdServer({
    METRIKA_ID: String(COUNTER_ID),
    METRIKA_TAG_URL: `${counterOrigin}/metrika/tag.js`,
    LEAD_RATE_LIMIT: '0',
  })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
  await new Promise((resolve) => counter?.close(resolve))
})
afterEach(async () => {
  await context?.close()
  context = null
  counterRequests.length = 0
})

async function open(options: { width?: number; javaScriptEnabled?: boolean } = {}) {
  context = await browser.newContext({
    viewport: { width: options.width ?? 1366, height: options.width === 360 ? 740 : 900 },
    locale: 'ru-RU',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  })
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = [])
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    )
  })
  await page.goto(server.url + '/')
  if (options.javaScriptEnabled !== false) await waitForVike(page, '/')
  return { page, errors }
}

/**
 * How long the counter is given to appear after «Принять» or on a page that has consent: the
 * positive checks poll this long, and the negative ones watch as long, so a counter that would
 * load a moment later without consent is seen, not missed by a look taken right after hydration.
 */
const COUNTER_WAIT = { timeout: 2_000, interval: 50 }

/** Nothing reaches the counter's stand-in, and no counter is set up, for all of COUNTER_WAIT. */
async function expectNoCounterLoads(page: Page) {
  const until = Date.now() + COUNTER_WAIT.timeout
  do {
    expect(counterRequests).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, COUNTER_WAIT.interval))
  } while (Date.now() < until)
  expect(counterRequests).toEqual([])
  expect(await page.evaluate(() => typeof (window as { ym?: unknown }).ym)).toBe('undefined')
}

const notice = (page: Page) => page.getByRole('region', { name: 'Мы используем файлы cookie' })
const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)

async function cookieNames(): Promise<string[]> {
  return (await context!.cookies()).map((cookie) => cookie.name).sort()
}

function loggedChoices(): Array<{ analytics: number; textVersion: string; ipHash: string; userAgent: string }> {
  const db = new Database(server.dbPath, { readonly: true })
  try {
    return db.prepare('select * from cookieChoice order by id').all() as never
  } finally {
    db.close()
  }
}

describe('the cookie notice', () => {
  it('asks first, and «Отклонить» leaves no counter request or cookie, now or on the next page', async () => {
    const before = loggedChoices().length
    const { page, errors } = await open()
    await expect.poll(() => notice(page).isVisible()).toBe(true)
    await expectNoCounterLoads(page)
    expect(await cookieNames()).toEqual([])
    const buttons = notice(page).getByRole('button')
    expect(await buttons.allTextContents()).toEqual(['Принять', 'Отклонить', 'Настроить'])
    // As large as each other: no answer is easier to hit than another.
    const boxes = await Promise.all((await buttons.all()).map((button) => button.boundingBox()))
    for (const box of boxes) {
      expect(box!.height).toBe(boxes[0]!.height)
      expect(Math.abs(box!.width - boxes[0]!.width)).toBeLessThan(1)
    }

    await notice(page).getByRole('button', { name: 'Отклонить' }).click()
    await expect.poll(() => notice(page).isVisible()).toBe(false)
    await expectNoCounterLoads(page)
    expect(await cookieNames()).toEqual(['vitrina_cookies'])
    await expect.poll(() => loggedChoices().length).toBe(before + 1)
    const logged = loggedChoices().at(-1)!
    expect(logged.analytics).toBe(0)
    expect(logged.textVersion).toMatch(/^sha256:[0-9a-f]{16}$/)
    expect(logged.ipHash).toMatch(/^[0-9a-f]{32}$/)
    expect(logged.ipHash).not.toContain('127.0.0.1')
    expect(logged.userAgent).toContain('Chrome')

    await page.reload()
    await waitForVike(page, '/')
    expect(await notice(page).isVisible()).toBe(false)
    await expectNoCounterLoads(page)
    expect(await cookieNames()).toEqual(['vitrina_cookies'])
    expect(await violations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('«Принять» loads the counter at once, without a reload or a CSP violation; withdrawing removes its cookies', async () => {
    const { page, errors } = await open()
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))
    await notice(page).getByRole('button', { name: 'Принять' }).click()
    // The stand-in counter's two hits (an image and a fetch) arrive in either order: wait for both.
    await expect
      .poll(
        () =>
          counterRequests.some((r) => r.startsWith('GET /watch/')) &&
          counterRequests.includes(`POST /collect/${COUNTER_ID}`),
        COUNTER_WAIT,
      )
      .toBe(true)
    expect(counterRequests).toContain('GET /metrika/tag.js')
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    expect(await cookieNames()).toEqual(['_ym_d', '_ym_uid', 'vitrina_cookies'])
    expect(await violations(page)).toEqual([])
    await expect.poll(() => loggedChoices().at(-1)?.analytics).toBe(1)

    // The next page loads the counter with no question.
    counterRequests.length = 0
    await page.reload()
    await waitForVike(page, '/')
    expect(await notice(page).isVisible()).toBe(false)
    await expect.poll(() => counterRequests.includes('GET /metrika/tag.js'), COUNTER_WAIT).toBe(true)

    // Withdrawn from the footer: the counter's cookies and storage go, and it loads no more.
    await page.locator('footer').getByRole('button', { name: 'Настройки cookie' }).click()
    const analytics = notice(page).getByRole('checkbox', { name: 'Аналитика (Яндекс Метрика)' })
    await expect.poll(() => analytics.isChecked()).toBe(true)
    expect(await analytics.evaluate((element) => element === document.activeElement)).toBe(true)
    await analytics.uncheck()
    await notice(page).getByRole('button', { name: 'Сохранить выбор' }).click()
    await expect.poll(() => cookieNames()).toEqual(['vitrina_cookies'])
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('_ym')))).toEqual([])
    await expect.poll(() => loggedChoices().at(-1)?.analytics).toBe(0)
    counterRequests.length = 0
    await page.reload()
    await waitForVike(page, '/')
    expect(await notice(page).isVisible()).toBe(false)
    await expectNoCounterLoads(page)
    expect(await violations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('with JavaScript off shows no notice and loads no counter', async () => {
    const { page } = await open({ javaScriptEnabled: false })
    expect(await page.locator('#cookie-notice').isVisible()).toBe(false)
    expect(await page.content()).not.toContain('<noscript><img')
    expect(counterRequests).toEqual([])
    expect(await cookieNames()).toEqual([])
  })

  for (const width of [360, 1366]) {
    it(`passes axe-core at ${width} px, with its settings open too`, async () => {
      const { page } = await open({ width })
      await expect.poll(() => notice(page).isVisible()).toBe(true)
      const check = async () => {
        const result = await wcagScan(page, '#cookie-notice')
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help}`)
      }
      expect(await check()).toEqual([])
      await notice(page).getByRole('button', { name: 'Настроить' }).click()
      await notice(page).getByRole('checkbox', { name: 'Аналитика (Яндекс Метрика)' }).waitFor()
      expect(await check()).toEqual([])
      // Keyboard: the settings button says it is expanded; Tab reaches every control.
      expect(await notice(page).getByRole('button', { name: 'Настроить' }).getAttribute('aria-expanded')).toBe('true')
    })
  }

  it('leaves the lead buttons clickable at 360 px while it is open', async () => {
    const { page } = await open({ width: 360 })
    await expect.poll(() => notice(page).isVisible()).toBe(true)
    await page.locator('header').getByRole('button', { name: 'Оставить заявку' }).click()
    const dialog = page.getByRole('dialog', { name: 'Оставить заявку' })
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    const footerButton = page.locator('footer').getByRole('button', { name: 'Оставить заявку' })
    await footerButton.scrollIntoViewIfNeeded()
    await footerButton.click()
    await dialog.waitFor()
    expect(await notice(page).isVisible()).toBe(true)
  })
})
