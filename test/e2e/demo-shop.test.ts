// «Убрать демо-магазин» in headless Chromium against the production build (issue 45, item 3): at
// phone size the offer fits the screen and «Отмена» changes nothing; at desktop size one confirmed
// click takes the demo's sections and products away, the tree no longer lists them, the public
// pages answer 410, and the offer is gone for good.
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations, openSignedIn, startAdminServer, type AdminTab } from './admin-helpers'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'

const tabs: AdminTab[] = []
const suite = browserSuite(startAdminServer)
afterEach(async () => {
  for (const tab of tabs.splice(0)) {
    expect(tab.errors()).toEqual([])
    await tab.context.close()
  }
})

async function admin(viewport: { width: number; height: number }) {
  const tab = await openSignedIn(suite.browser, suite.server, '/admin/content', viewport)
  tabs.push(tab)
  return tab
}

const status = async (path: string) => (await fetch(suite.server.url + path, { headers: NOT_KEPT_ALIVE })).status

describe('«Убрать демо-магазин»', { timeout: 90_000 }, () => {
  it('fits a phone, asks before it acts, and «Отмена» changes nothing', async () => {
    const { page } = await admin({ width: 390, height: 844 })
    const offer = page.getByRole('button', { name: 'Убрать демо-магазин' })
    await offer.waitFor()
    await offer.click()
    await page.getByRole('button', { name: 'Да, убрать' }).waitFor()
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(sideways).toBeLessThanOrEqual(0)
    expect(await axeViolations(page, 'the question at 390 px')).toEqual([])
    await page.getByRole('button', { name: 'Отмена' }).click()
    await offer.waitFor()
    expect(await status('/structure/power-tools/screwdriver')).toBe(200)
  })

  it('removes the demo catalogue with one confirmed click, and the tree and the site show it', async () => {
    const { page } = await admin({ width: 1366, height: 900 })
    const tree = page.getByRole('navigation', { name: 'Структура сайта' })
    await tree.getByRole('link', { name: 'Электроинструмент', exact: true }).waitFor()
    await page.getByRole('button', { name: 'Убрать демо-магазин' }).click()
    await page.getByRole('button', { name: 'Да, убрать' }).click()
    await expect.poll(async () => page.getByRole('status').filter({ hasText: 'Демо-магазин убран' }).count()).toBe(1)
    await expect.poll(async () => tree.getByRole('link', { name: 'Электроинструмент', exact: true }).count()).toBe(0)
    await tree.getByRole('link', { name: 'Садовая техника', exact: true }).waitFor({ state: 'detached' })
    expect(await status('/structure/power-tools/screwdriver')).toBe(410)
    expect(await status('/')).toBe(200)
    // Opened again, the screen no longer offers it.
    const again = await admin({ width: 1366, height: 900 })
    await again.page.getByRole('navigation', { name: 'Структура сайта' }).getByRole('link').first().waitFor()
    expect(await again.page.getByRole('button', { name: 'Убрать демо-магазин' }).count()).toBe(0)
  })
})
