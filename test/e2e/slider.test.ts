// The home page's slider in a real browser. Its arrows and dots are a client-only island
// (src/islands/Island.tsx): the server sends the island's element empty, the browser renders them
// into the row slider.css keeps free, so nothing below the slider moves when they appear.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'

const suite = browserSuite()
let page: Page
afterEach(async () => {
  await page?.context().close()
})

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 375, height: 740 }

/** The home page, with its layout shifts recorded from the start (`window.__shifts`). */
async function openHome({ javaScriptEnabled = true, viewport = DESKTOP } = {}): Promise<string[]> {
  await page?.context().close()
  const context = await suite.browser.newContext({ viewport, locale: 'ru-RU', javaScriptEnabled })
  page = await context.newPage()
  const errors = watchErrors(page)
  await page.addInitScript(() => {
    const shifts: number[] = ((window as any).__shifts = [])
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as any[]) if (!entry.hadRecentInput) shifts.push(entry.value)
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(`${suite.server.url}/`)
  if (javaScriptEnabled) await waitForVike(page, '/')
  return errors
}

/**
 * Where the slider and the part below it are: boxes read by the browser's protocol, which also
 * works on a page that runs no script (the page is not scrolled).
 */
async function layout() {
  const [slider, advantages] = await Promise.all(
    ['.slider', '.advantages'].map((selector) => page.locator(selector).boundingBox()),
  )
  return { slider, advantages }
}

describe('the home page slider', () => {
  it('gets its controls from the browser: the server sends the island empty', async () => {
    const html = await (await fetch(`${suite.server.url}/`, { headers: NOT_KEPT_ALIVE })).text()
    expect(html).toContain('<vitrina-island data-island="slider" data-props="{&quot;count&quot;:3}"></vitrina-island>')
    expect(html).not.toContain('slider__controls')
    const errors = await openHome()
    const controls = page.locator('.slider .slider__controls')
    await expect(
      controls.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.ariaLabel)),
    ).resolves.toEqual(['Предыдущий слайд', 'Слайд 1', 'Слайд 2', 'Слайд 3', 'Следующий слайд'])
    await expect(controls.getByRole('button', { name: 'Слайд 1' }).getAttribute('aria-current')).resolves.toBe('true')
    await controls.getByRole('button', { name: 'Следующий слайд' }).click()
    const slideShown = () => page.$eval('.slider__track', (track) => Math.round(track.scrollLeft / track.clientWidth))
    await expect.poll(slideShown, { timeout: 5000 }).toBe(1)
    await expect(controls.getByRole('button', { name: 'Слайд 2' }).getAttribute('aria-current')).resolves.toBe('true')
    await expect(controls.getByRole('button', { name: 'Слайд 1' }).getAttribute('aria-current')).resolves.toBe('false')
    // A dot scrolls to its slide too.
    await controls.getByRole('button', { name: 'Слайд 3' }).click()
    await expect.poll(slideShown, { timeout: 5000 }).toBe(2)
    await expect(controls.getByRole('button', { name: 'Слайд 3' }).getAttribute('aria-current')).resolves.toBe('true')
    expect(errors).toEqual([])
  })

  for (const [device, viewport] of [
    ['a desktop', DESKTOP],
    ['a phone', PHONE],
  ] as const) {
    it(`moves nothing below the slider when the controls appear, on ${device}`, async () => {
      // Without JavaScript the row stays empty: where the page is before the controls are drawn.
      await openHome({ javaScriptEnabled: false, viewport })
      expect(await page.locator('.slider > vitrina-island').innerHTML()).toBe('')
      const before = await layout()
      const errors = await openHome({ viewport })
      await expect(page.locator('.slider__controls').isVisible()).resolves.toBe(true)
      // Two frames drawn since: a shift from the controls' first layout would be reported by now.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
      const after = await layout()
      expect(after).toEqual(before)
      // The browser saw no layout shift at all while the page loaded and hydrated.
      expect(await page.evaluate(() => (window as any).__shifts as number[])).toEqual([])
      expect(errors).toEqual([])
    })
  }

  it('passes the WCAG 2.1 AA scan of the slider with its controls', async () => {
    await openHome()
    await page.locator('.slider__controls').waitFor()
    const { violations } = await wcagScan(page, '.slider')
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual(
      [],
    )
  })
})
