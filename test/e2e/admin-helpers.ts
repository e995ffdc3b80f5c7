// What the back-office browser tests share: a production server with an admin secret, a browser
// context per client address (the server trusts X-Forwarded-For from loopback, so the sign-in
// limit of 5 a minute per address does not couple tests), sign-in, and axe.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { startProdServer, type ProdServer } from '../helpers/prod-server'

export const ADMIN_SECRET = 'admin-secret-for-tests-0123456789'

export function startAdminServer(env: Record<string, string> = {}): Promise<ProdServer> {
  return startProdServer({
    ADMIN_TOKEN: ADMIN_SECRET,
    TRUST_PROXY: '127.0.0.1',
    LEAD_RATE_LIMIT: '0',
    LEAD_MIN_FILL_SECONDS: '0',
    ...env,
  })
}

let addresses = 0

export interface AdminTab {
  readonly context: BrowserContext
  readonly page: Page
  /**
   * Console errors and page errors. Chrome logs every 4xx answer of fetch; those are the refusals
   * the tests provoke (401 before sign-in, 409 for a taken URL…) and the screens show them.
   */
  readonly errors: () => string[]
}

/** Set-up of a new context before its first page loads (e.g. `context.clock.install()`). */
export type PrepareContext = (context: BrowserContext) => Promise<void>

/** A fresh browser context from its own client address, on `path` of the back office. */
export async function openAdmin(
  browser: Browser,
  server: ProdServer,
  path = '/admin',
  viewport = { width: 1366, height: 900 },
  prepare?: PrepareContext,
): Promise<AdminTab> {
  addresses += 1
  const context = await browser.newContext({
    viewport,
    locale: 'ru-RU',
    extraHTTPHeaders: { 'x-forwarded-for': `10.20.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}` },
  })
  await prepare?.(context)
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.goto(server.url + path)
  await waitForVike(page, path.split('?')[0])
  return {
    context,
    page,
    errors: () =>
      errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d\b/.test(e)),
  }
}

export async function signIn(page: Page, secret = ADMIN_SECRET): Promise<void> {
  await page.getByLabel('Пароль').fill(secret)
  await page.getByRole('button', { name: 'Войти' }).click()
}

/** Opens `path` signed in: the sign-in form first, then the screen itself. */
export async function openSignedIn(
  browser: Browser,
  server: ProdServer,
  path = '/admin',
  viewport?: { width: number; height: number },
  prepare?: PrepareContext,
) {
  const tab = await openAdmin(browser, server, path, viewport, prepare)
  await signIn(tab.page)
  await tab.page.getByRole('button', { name: 'Выйти' }).waitFor()
  return tab
}

/**
 * The database whose run of a test scans its screens with axe. The same components render the same
 * data on the other, so a second scan of a screen proves nothing more and costs about a second of
 * CPU; what the database changes (stored values, the flow) every run still checks.
 */
export const AXE_DIALECT = 'SQLite'

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now. */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const { violations } = await wcagScan(page)
  return violations.map((v) => `${label}: ${v.id} ${v.impact} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

/** The error text shown under a field (the element its aria-describedby names with class field__error). */
export async function fieldError(page: Page, label: string): Promise<string | null> {
  const ids = ((await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '').split(' ')
  const error = page.locator(
    ids
      .filter(Boolean)
      .map((id) => `[id="${id}"].field__error`)
      .join(', ') || 'none',
  )
  return (await error.count()) === 0 ? null : error.textContent()
}
