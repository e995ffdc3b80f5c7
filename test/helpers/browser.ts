// Headless Chromium driven by playwright-core (its own browser download does not work here). The
// browser is found in this order (docs/decisions/010-test-browser.md): CHROMIUM_PATH; a system
// Chromium or Chrome; else the headless Chromium that the @sparticuz/chromium dev dependency ships
// inside the npm package, unpacked to the temp folder on first use. No browser test is skipped.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { AxeBuilder } from '@axe-core/playwright'
import { chromium, type Browser, type Page } from 'playwright-core'

const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      /* not here */
    }
  }
  return null
}

interface FoundBrowser {
  readonly executablePath: string
  /** Extra environment the browser needs (the bundled one's libraries and fonts) */
  readonly env: Record<string, string>
  readonly source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium'
}

let found: Promise<FoundBrowser> | null = null

/** Where the tests' Chromium is: the same answer for the whole test process. */
export function findChromium(): Promise<FoundBrowser> {
  found ??= locate()
  return found
}

async function locate(): Promise<FoundBrowser> {
  const configured = process.env.CHROMIUM_PATH
  if (configured) return { executablePath: configured, env: {}, source: 'CHROMIUM_PATH' }
  for (const name of SYSTEM_BROWSERS) {
    const file = onPath(name)
    if (file) return { executablePath: file, env: {}, source: 'system' }
  }
  const { default: bundled } = await import('@sparticuz/chromium')
  const executablePath = await bundled.executablePath()
  // The package unpacks NSS for Amazon Linux only; machines without libnss3 need it as well.
  const entry = import.meta.resolve('@sparticuz/chromium')
  const { inflate } = (await import(new URL('./lambdafs.js', entry).href)) as {
    inflate: (file: string) => Promise<string>
  }
  const libs = await inflate(fileURLToPath(new URL('../../bin/al2023.tar.br', entry)))
  const tmp = os.tmpdir()
  return {
    executablePath,
    env: { LD_LIBRARY_PATH: path.join(libs, 'lib'), FONTCONFIG_PATH: path.join(tmp, 'fonts') },
    source: '@sparticuz/chromium',
  }
}

/** Headless Chromium as root on a machine with no network but loopback (no background traffic). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
] as const

export async function launchBrowser(): Promise<Browser> {
  const browser = await findChromium()
  return chromium.launch({
    executablePath: browser.executablePath,
    headless: true,
    env: { ...process.env, ...browser.env },
    args: [...CHROMIUM_ARGS],
  })
}

/** Collects console errors and uncaught page errors for "no console errors" assertions. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  page.on('pageerror', (err) => errors.push(err.message))
  return errors
}

/**
 * Waits until the page at `pathname` is interactive: a public page's islands are hydrated
 * (`<html data-hydrated>`), or Vike finished rendering the back office (hydration or a client
 * navigation).
 */
export async function waitForVike(page: Page, pathname: string): Promise<void> {
  await page.waitForFunction(
    (p) => {
      if (document.documentElement.hasAttribute('data-hydrated')) return location.pathname === p
      const url = (window as any)._vike?.fullyRenderedUrl as string | undefined
      return url !== undefined && new URL(url, location.origin).pathname === p
    },
    pathname,
    { timeout: 15_000 },
  )
}

/**
 * axe's WCAG 2.1 A/AA scan of the page (or of the part `include` selects) once its finite CSS transitions have ended. A button just
 * clicked is hovered, and its colours are mid-way for 0.2 s: scanned then, white text on a half-dark
 * background fails the contrast check one run in a few, though neither end state does.
 */
export async function wcagScan(page: Page, include?: string): Promise<Awaited<ReturnType<AxeBuilder['analyze']>>> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
  return (include ? builder.include(include) : builder).analyze()
}
