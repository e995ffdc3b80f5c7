// Headless Debian Chromium driven by playwright-core (its own browser download does not work here).
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  })
}

/** Collects console errors and uncaught page errors for "no console errors" assertions. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()) })
  page.on('pageerror', (err) => errors.push(err.message))
  return errors
}

/** Waits until Vike finished rendering (hydration or a client navigation) of the given path. */
export async function waitForVike(page: Page, pathname: string): Promise<void> {
  await page.waitForFunction((p) => {
    const url = (window as any)._vike?.fullyRenderedUrl as string | undefined
    return url !== undefined && new URL(url, location.origin).pathname === p
  }, pathname, { timeout: 15_000 })
}
