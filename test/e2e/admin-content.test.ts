// The back office's content editor in headless Chromium against the production build: every change
// goes through the write API and is on the public site at once. The phone in the header, a new
// product with an image, taking it off the site (410) and a draft (404), deleting a product (410) after an
// in-page confirmation, the API's Russian errors next to their fields
// with nothing half-saved, the home page's lists; axe-core over the tree and the editor.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { waitForVike } from '../helpers/browser'
import { pngImage } from '../api/helpers'
import {
  ADMIN_SECRET,
  axeViolations,
  fieldError,
  openSignedIn,
  signIn,
  startAdminServer,
  type AdminTab,
} from './admin-helpers'
import { browserSuite } from '../helpers/browser-suite'

// Browser work under a loaded CI machine: each test gets 90 s (the default is 30 s).
const tabs: AdminTab[] = []

const suite = browserSuite(startAdminServer)
afterEach(async () => {
  for (const tab of tabs.splice(0)) {
    expect(tab.errors()).toEqual([])
    await tab.context.close()
  }
})

async function admin(path = '/admin/content', viewport?: { width: number; height: number }) {
  const tab = await openSignedIn(suite.browser, suite.server, path, viewport)
  tabs.push(tab)
  return tab
}

/** The record's id by its URL, read with the token (as a tool would). */
async function recordId(urlFull: string): Promise<number> {
  const query = JSON.stringify({ where: { urlFull }, select: { id: true } })
  const res = await fetch(`${suite.server.url}/api/structure?query=${encodeURIComponent(query)}`, {
    headers: { authorization: `Bearer ${ADMIN_SECRET}` },
  })
  return ((await res.json()) as { data: { id: number } }).data.id
}

async function publicPage(path: string) {
  const res = await fetch(suite.server.url + path)
  return { status: res.status, body: await res.text() }
}

async function save(page: Page, name = 'Сохранить') {
  await page.getByRole('button', { name }).click()
}

describe('the content editor', { timeout: 90_000 }, () => {
  it('lists the structure as a tree and opens a record from it', async () => {
    const { page } = await admin()
    const tree = page.getByRole('navigation', { name: 'Структура сайта' })
    // From the keyboard: Tab to the record's link, Enter; the editor opens with focus on its content.
    const link = tree.getByRole('link', { name: 'Электроинструмент', exact: true })
    for (let i = 0; i < 40 && !(await link.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab')
    }
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Электроинструмент', level: 1 }).waitFor()
    expect(await page.getByLabel('Адрес страницы (URL)').inputValue()).toBe('/structure/power-tools/')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
    expect(await page.title()).toBe('Запись — управление сайтом')
  })

  it('moves a record up among its siblings, and the public section lists it in that place', async () => {
    const { page } = await admin()
    const tree = page.getByRole('navigation', { name: 'Структура сайта' })
    await tree.getByRole('button', { name: '«Садовая техника»: выше' }).click()
    await page.getByText('«Садовая техника» теперь 1-я из 4').waitFor({ state: 'attached' })
    await expect.poll(() => tree.getByRole('button', { name: '«Садовая техника»: выше' }).isDisabled()).toBe(true)
    const catalogue = (await publicPage('/structure/')).body
    // The section's cards (and the menu) follow the stored order.
    expect(catalogue.indexOf('href="/structure/garden/"')).toBeGreaterThan(0)
    expect(catalogue.indexOf('href="/structure/garden/"')).toBeLessThan(
      catalogue.indexOf('href="/structure/power-tools/"'),
    )
  })

  it('edits the phone of the index record and the public header shows it at once', async () => {
    const { page } = await admin(`/admin/content/${await recordId('/')}`)
    const phone = page.getByLabel('Телефон', { exact: true })
    expect(await phone.inputValue()).toBe('+7 (495) 123-45-67')
    await phone.fill('+7 (812) 765-43-21')
    await save(page)
    await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()
    const home = await publicPage('/')
    expect(home.body).toContain('+7 (812) 765-43-21')
    expect(home.body).not.toContain('+7 (495) 123-45-67')
  })

  it('creates a product with an image, which opens on the site; taken off the site it answers 410', async () => {
    const sectionId = await recordId('/structure/power-tools/')
    const { page } = await admin(`/admin/content/new?parentId=${sectionId}&typeId=product`)
    await page.getByRole('heading', { name: 'Новая запись' }).waitFor()
    expect(await page.getByLabel('Тип записи').inputValue()).toBe('product')
    await page.getByLabel('Заголовок').fill('Гайковёрт ударный 20 В')
    await page.getByLabel('Адрес страницы (URL)').fill('/structure/power-tools/impact-wrench')
    await page.getByLabel('Артикул').fill('ЭИ-3001')
    await page.getByLabel('Цена, ₽').fill('12 990')
    // The gallery's first picture is the product's main image (decision 025).
    await page.getByRole('button', { name: 'Добавить фото' }).click()
    await page.getByLabel('Фото 1', { exact: true }).setInputFiles({
      name: 'wrench.png',
      mimeType: 'image/png',
      buffer: await pngImage(40, 30, [0, 120, 200]),
    })
    // The preview of the chosen file, before anything is saved.
    await expect
      .poll(() => page.getByRole('img', { name: 'Сейчас: фото 1' }).getAttribute('src'))
      .toMatch(/^data:image\/png;base64,/)
    await save(page, 'Создать')
    await page.getByRole('heading', { name: 'Гайковёрт ударный 20 В', level: 1 }).waitFor()
    await expect
      .poll(() => page.getByRole('img', { name: 'Сейчас: фото 1' }).getAttribute('src'))
      .toMatch(/^\/media\/uploads\//)

    const product = await publicPage('/structure/power-tools/impact-wrench')
    expect(product.status).toBe(200)
    expect(product.body).toContain('Гайковёрт ударный 20 В')
    expect(product.body).toContain('ЭИ-3001')
    expect(product.body).toMatch(/\/media\/uploads\/[0-9a-f]{16}\.\d+x\d+\.png/)

    // Withdrawn: the URL answers 410 and the record waits in the tree to be put back.
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Снять с публикации' }).click()
    await page.getByText('Запись снята с публикации: её адрес отвечает 410').waitFor()
    expect((await publicPage('/structure/power-tools/impact-wrench')).status).toBe(410)
    await page.getByRole('button', { name: 'Вернуть на сайт' }).click()
    await page.getByText('Запись снова на сайте').waitFor()
    expect((await publicPage('/structure/power-tools/impact-wrench')).status).toBe(200)

    // A draft (unticked «Опубликовано») is not on the site at all.
    await page.getByLabel('Опубликовано (видно на сайте)').uncheck()
    await save(page)
    await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()
    expect((await publicPage('/structure/power-tools/impact-wrench')).status).toBe(404)
  })

  it('deletes a product after an in-page confirmation: its URL answers 410; a section with products is refused', async () => {
    // A section with records under it: the API's Russian refusal next to the button, nothing deleted.
    const { page } = await admin(`/admin/content/${await recordId('/structure/garden/')}`)
    await page.getByRole('heading', { name: 'Садовая техника', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Удалить', exact: true }).click()
    await page.getByRole('button', { name: 'Да, удалить' }).click()
    await page.getByRole('alert').filter({ hasText: 'Сначала удалите или перенесите вложенные записи' }).waitFor()
    expect((await publicPage('/structure/garden/')).status).toBe(200)

    await page.goto(`${suite.server.url}/admin/content/${await recordId('/structure/garden/lawn-mower')}`)
    await page.getByRole('heading', { name: 'Газонокосилка бензиновая 46 см', level: 1 }).waitFor()
    // From the keyboard: the question takes focus on «Отмена», Escape puts it back on «Удалить».
    const remove = page.getByRole('button', { name: 'Удалить', exact: true })
    await remove.focus()
    await page.keyboard.press('Enter')
    const question = page.getByRole('group', {
      name: 'Удалить запись «Газонокосилка бензиновая 46 см»? Её адрес будет отвечать «страница удалена» (410).',
    })
    await question.waitFor()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Отмена')
    await page.keyboard.press('Escape')
    await question.waitFor({ state: 'detached' })
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Удалить')
    expect((await publicPage('/structure/garden/lawn-mower')).status).toBe(200)

    await page.keyboard.press('Enter')
    await question.getByRole('button', { name: 'Да, удалить' }).click()
    // Back in the tree, without the record; its public URL answers «страница удалена».
    const tree = page.getByRole('navigation', { name: 'Структура сайта' })
    await tree.waitFor()
    expect(new URL(page.url()).pathname).toBe('/admin/content')
    await tree.getByRole('link', { name: 'Триммер электрический 1200 Вт', exact: true }).waitFor()
    expect(await tree.getByRole('link', { name: 'Газонокосилка бензиновая 46 см', exact: true }).count()).toBe(0)
    expect((await publicPage('/structure/garden/lawn-mower')).status).toBe(410)
    expect((await publicPage('/structure/garden/')).body).not.toContain('Газонокосилка бензиновая')
  })

  it('shows the API’s Russian errors next to their fields and saves nothing of a refused write', async () => {
    const { page } = await admin(`/admin/content/${await recordId('/structure/power-tools/screwdriver')}`)
    const url = page.getByLabel('Адрес страницы (URL)')
    await page.getByLabel('Заголовок').fill('Шуруповёрт, которого не сохранят')
    await url.fill('/structure/power-tools/jigsaw')
    await save(page)
    await page.getByRole('alert').getByText('Адрес "/structure/power-tools/jigsaw" уже занят другой записью').waitFor()
    // The field names its error: the message is next to it and read out with it.
    expect(await fieldError(page, 'Адрес страницы (URL)')).toBe('Адрес уже занят')
    expect(await url.getAttribute('aria-invalid')).toBe('true')

    await url.fill('/structure/power-tools/screwdriver')
    await page.getByLabel('Цена, ₽').fill('семь тысяч')
    await save(page)
    const price = page.getByLabel('Цена, ₽')
    await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true')
    expect(await fieldError(page, 'Цена, ₽')).toMatch(/^[А-Яа-яё]/)

    await page.getByLabel('Заголовок').fill('')
    await page.getByLabel('Цена, ₽').fill('7490')
    await save(page)
    const title = page.getByLabel('Заголовок')
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true')

    const stored = await publicPage('/structure/power-tools/screwdriver')
    expect(stored.status).toBe(200)
    expect(stored.body).toContain('Шуруповёрт аккумуляторный 18 В')
    expect(stored.body).not.toContain('которого не сохранят')
  })

  it('keeps unsaved edits through an expired session: sign in again and save', async () => {
    const { page } = await admin(`/admin/content/${await recordId('/structure/power-tools/jigsaw')}`)
    await page.getByLabel('Артикул').fill('ЭИ-9999')
    // The server's clock decides: every session's expiry is moved into the past in the database.
    const db = new Database(suite.server.dbPath)
    try {
      db.prepare('update adminSession set expiresAt = ?').run('2000-01-01T00:00:00.000Z')
    } finally {
      db.close()
    }
    await save(page)
    await page.getByText('Сессия истекла. Войдите снова.').waitFor()
    await signIn(page)
    expect(await page.getByLabel('Артикул').inputValue()).toBe('ЭИ-9999')
    await save(page)
    await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()
    expect((await publicPage('/structure/power-tools/jigsaw')).body).toContain('ЭИ-9999')
  })

  it('refuses a file that is not an image with the API’s message next to the image field', async () => {
    const { page } = await admin(`/admin/content/${await recordId('/structure/power-tools/screwdriver')}`)
    await page.getByLabel('Фото 1', { exact: true }).setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not a picture at all'),
    })
    await save(page)
    const input = page.getByLabel('Фото 1', { exact: true })
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true')
    expect(await fieldError(page, 'Фото 1')).toBe(
      'Неподдерживаемый формат файла: загрузите изображение JPEG, PNG, WebP или AVIF',
    )
  })

  it('adds, reorders and deletes the home page’s slides and advantages', async () => {
    const { page } = await admin(`/admin/content/${await recordId('/')}`)
    const slider = page.getByRole('group', { name: 'Слайдер' })
    await slider.getByRole('button', { name: 'Слайд 3: выше' }).click()
    await slider.getByRole('button', { name: 'Слайд 1: удалить' }).click()
    await slider.getByRole('button', { name: 'Добавить слайд' }).click()
    await slider.getByLabel('Заголовок слайда').last().fill('Новый слайд')
    await slider
      .getByLabel('Изображение слайда')
      .last()
      .setInputFiles({
        name: 'slide.png',
        mimeType: 'image/png',
        buffer: await pngImage(60, 20, [10, 200, 10]),
      })
    const advantages = page.getByRole('group', { name: 'Преимущества' })
    await advantages.getByRole('button', { name: 'Добавить преимущество' }).click()
    await advantages.getByLabel('Заголовок преимущества').last().fill('Честные цены')
    await save(page)
    await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()

    const slides = await slider
      .getByLabel('Заголовок слайда')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
    expect(slides).toEqual(['Доставка по Москве и области за 1 день', 'Садовая техника к новому сезону', 'Новый слайд'])
    const home = await publicPage('/')
    expect(home.body).toContain('Новый слайд')
    expect(home.body).toContain('Честные цены')
    expect(home.body).not.toContain('Электроинструмент для дома и стройки')
    expect(home.body.indexOf('Доставка по Москве и области за 1 день')).toBeLessThan(
      home.body.indexOf('Садовая техника к новому сезону'),
    )
  })
})

describe('the public pages', { timeout: 90_000 }, () => {
  it('load none of the back office’s code', async () => {
    for (const path of ['/', '/structure/power-tools/jigsaw']) {
      const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ru-RU' })
      try {
        const page = await context.newPage()
        const scripts: Array<Promise<{ url: string; body: string }>> = []
        page.on('response', (response) => {
          if (response.request().resourceType() !== 'script') return
          scripts.push(response.text().then((body) => ({ url: response.url(), body })))
        })
        await page.goto(suite.server.url + path)
        await waitForVike(page, path)
        await page.waitForLoadState('networkidle')
        const loaded = await Promise.all(scripts)
        expect(loaded.length).toBeGreaterThan(3)
        for (const { url, body } of loaded) {
          expect(url, path).not.toMatch(/pages_admin/)
          // The back office's API calls and texts live in its own chunks only.
          expect(body.includes('/api/admin/') || body.includes('Управление сайтом'), url).toBe(false)
        }
      } finally {
        await context.close()
      }
    }
  })
})

describe('accessibility of the content screens', { timeout: 90_000 }, () => {
  it('has no axe-core violations on the tree and the editor at 1366 px and 360 px', async () => {
    const found: string[] = []
    const homeId = await recordId('/')
    const productId = await recordId('/structure/power-tools/circular-saw')
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 360, height: 740 },
    ]) {
      const { page } = await admin('/admin/content', viewport)
      await page.getByRole('navigation', { name: 'Структура сайта' }).waitFor()
      found.push(...(await axeViolations(page, `tree @${viewport.width}`)))
      for (const id of [homeId, productId]) {
        await page.goto(`${suite.server.url}/admin/content/${id}`)
        await page.getByLabel('Заголовок', { exact: true }).waitFor()
        found.push(...(await axeViolations(page, `editor ${id} @${viewport.width}`)))
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
      }
    }
    expect(found).toEqual([])
  })
})
