// The Content-Security-Policy in a real browser on the production build: the pages, page
// navigation, the lead dialog and the 404 run without a single violation, with Metrika on and
// off; the header is the same on a cache hit and a miss; a script injected through content does
// not run; the speculation rules, named by a header, load without a violation and prefetch a link.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, waitForVike } from '../helpers/browser'
import { ensureBuild, NOT_KEPT_ALIVE, startProdServer, type ProdServer } from '../helpers/prod-server'

let browser: Browser

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function visit(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = [])
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    )
  })
  return {
    page,
    violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  }
}

for (const metrika of [false, true]) {
  describe(`the Content-Security-Policy, Metrika ${metrika ? 'on' : 'off'}`, () => {
    let server: ProdServer
    beforeAll(async () => {
      server = await startProdServer(metrika ? { METRIKA_ID: '12345678' } : {})
    })
    afterAll(async () => {
      await server?.stop()
      server?.cleanup()
    })

    it('lets the site run with no violation: pages, navigation, a lead sent from the dialog, the 404', async () => {
      const { page, violations } = await visit()
      await page.goto(server.url + '/')
      await waitForVike(page, '/')
      await page.locator('header nav a', { hasText: 'Каталог' }).first().click()
      await page.waitForURL('**/structure/')
      await page.goBack()
      await page.waitForURL(server.url + '/')
      const product = page.locator('.card__link').first()
      const href = await product.getAttribute('href')
      await product.click()
      await page.waitForURL(`**${href}`)
      await page.locator('header').getByRole('button', { name: 'Оставить заявку' }).click()
      const dialog = page.getByRole('dialog', { name: 'Оставить заявку' })
      await dialog.getByLabel('Ваше имя').fill('Анна')
      await dialog.getByLabel('Ваш телефон').fill('9123456789')
      await dialog.getByLabel('Ваш E-mail').fill('anna@example.ru')
      await dialog.getByRole('checkbox').check()
      await dialog.getByRole('button', { name: 'Отправить' }).click()
      await page.getByRole('heading', { name: 'Заявка отправлена' }).waitFor()
      await page.goto(server.url + '/no-such-page')
      await page.waitForLoadState('networkidle')
      expect(await violations()).toEqual([])
      await page.context().close()
    })

    it('loads the speculation rules the header names, with no violation: a hovered link is prefetched', async () => {
      const { page, violations } = await visit()
      const rules = page.waitForRequest((request) => request.url() === `${server.url}/speculation-rules.json`)
      await page.goto(server.url + '/')
      await rules
      const product = page.locator('.card__link').first()
      const href = await product.getAttribute('href')
      const prefetched = page.waitForRequest(
        (request) => request.url() === server.url + href && /prefetch/.test(request.headers()['sec-purpose'] ?? ''),
      )
      await product.hover() // eagerness "moderate": a pointer resting on the link
      await prefetched
      expect(await violations()).toEqual([])
      await page.context().close()
    })

    it('keeps a script written into content from running', async () => {
      const { page, violations } = await visit()
      await page.goto(server.url + '/')
      await waitForVike(page, '/')
      // What an attacker's markup would become if anything ever wrote it out unescaped.
      await page.evaluate(() => {
        const holder = document.createElement('div')
        holder.innerHTML = '<img src="x" onerror="window.pwned = 1">'
        document.body.append(holder)
      })
      // The browser reports the handler it refused; had it been allowed, it would have run by then.
      await expect.poll(async () => (await violations()).some((v) => v.startsWith('script-src'))).toBe(true)
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
      await page.context().close()
    })

    it('runs no inline script the site did not write, whatever the page holds', async () => {
      const { page, violations } = await visit()
      // A script in the document itself, as an HTML injection would put it there.
      await page.route(server.url + '/', async (route) => {
        const response = await route.fetch()
        const body = (await response.text()).replace('</body>', '<script>window.pwned = 1</script></body>')
        await route.fulfill({ response, body })
      })
      await page.goto(server.url + '/')
      await waitForVike(page, '/')
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
      expect((await violations()).some((v) => v.startsWith('script-src'))).toBe(true)
      await page.context().close()
    })

    it('sends the same policy on a miss and on a hit', async () => {
      const miss = await fetch(server.url + '/structure/power-tools/', { headers: NOT_KEPT_ALIVE })
      const hit = await fetch(server.url + '/structure/power-tools/', { headers: NOT_KEPT_ALIVE })
      expect(hit.headers.get('x-vitrina-cache')).toBe('hit')
      const policy = miss.headers.get('content-security-policy')
      expect(policy).toContain("'strict-dynamic'")
      expect(policy).not.toContain('unsafe-inline')
      expect(policy).not.toContain('unsafe-eval')
      expect(hit.headers.get('content-security-policy')).toBe(policy)
      expect(policy!.includes('mc.yandex.ru')).toBe(metrika)
    })
  })
}
