// The first sign-in without a terminal in Chromium against the production build (issue 45), on
// SQLite and PostgreSQL, on a laptop (1366×900) and a phone (390×844): a new site's /admin says the
// link is in the console; the link the start printed chooses the owner's password and signs in;
// the same link is refused afterwards; another device signs in with the password; «Сменить пароль»
// ends that other device's session and keeps this one. Nothing scrolls sideways; axe finds nothing
// (each screen and size scanned on SQLite: the same screens on PostgreSQL prove nothing more).
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { ensureBuild, type ProdServer } from '../helpers/prod-server'
import {
  AXE_DIALECT,
  axeViolations,
  fieldError,
  openAdmin,
  signIn,
  startAdminServer,
  type AdminTab,
} from './admin-helpers'

const SIZES = [
  { name: 'a laptop', viewport: { width: 1366, height: 900 } },
  { name: 'a phone', viewport: { width: 390, height: 844 } },
] as const
const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
] as const

const PASSWORD = 'пароль-магазина-2026'
const NEW_PASSWORD = 'новый-пароль-магазина'
const LINK_INVALID =
  'Ссылка для установки пароля недействительна: она устарела или уже использована. ' +
  'Перезапустите сервер — в консоли появится новая.'

let browser: Browser

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** The server's output once the start has printed its running line (it follows listening). */
async function startOutput(server: ProdServer): Promise<string> {
  const deadline = Date.now() + 15_000
  while (!server.output().includes('Vitrina is running at')) {
    if (Date.now() > deadline) throw new Error(`no running line: ${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return server.output()
}

async function fitsWidth(tab: AdminTab): Promise<boolean> {
  return tab.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

async function choosePassword(tab: AdminTab, password: string, repeat = password): Promise<void> {
  await tab.page.getByLabel('Новый пароль', { exact: true }).fill(password)
  await tab.page.getByLabel('Повторите пароль', { exact: true }).fill(repeat)
  await tab.page.getByRole('button', { name: 'Сохранить пароль' }).click()
}

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`the first sign-in in Chromium on ${dialect.name}`, { timeout: 120_000 }, () => {
    for (const size of SIZES)
      it(`on ${size.name}: the printed link chooses the password once and signs in; a new password ends the other device's session`, async () => {
        const schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
        const server = await startAdminServer({ ADMIN_TOKEN: '', ...(schema ? { DATABASE_URL: schema.url } : {}) })
        const tabs: AdminTab[] = []
        const scan = dialect.name === AXE_DIALECT
        const open = async (path: string) => {
          const tab = await openAdmin(browser, server, path, size.viewport)
          tabs.push(tab)
          return tab
        }
        try {
          // The console: the one-time link, then where the back office is and that sign-in is not set up.
          const output = await startOutput(server)
          const printed = /^Choose the owner's password \(one-time link, valid 1 h\): (\S+)$/m.exec(output)
          expect(printed, output).not.toBeNull()
          const link = new URL(printed![1])
          expect(link.pathname).toBe(ADMIN_PATHS.setup)
          expect(output).toContain(`back office: ${server.url}/admin (sign-in is not set up yet`)

          // /admin before any password: where the link is, no form to fill.
          const first = await open(ADMIN_PATHS.leads)
          await first.page.getByText('Пароль владельца ещё не задан.').waitFor()
          await first.page.getByText(/напечатана в консоли сервера при запуске/).waitFor()
          expect(await first.page.getByLabel('Пароль', { exact: true }).count()).toBe(0)
          expect(await fitsWidth(first)).toBe(true)
          if (scan) expect(await axeViolations(first.page, 'not set up')).toEqual([])

          // The link: its form refuses a short password and a mismatch in Russian, then signs in.
          const setup = await open(link.pathname + link.search)
          await setup.page.getByRole('heading', { name: 'Пароль владельца', level: 1 }).waitFor()
          if (scan) expect(await axeViolations(setup.page, 'setup')).toEqual([])
          await choosePassword(setup, 'короткий')
          expect(await fieldError(setup.page, 'Новый пароль')).toBe('Пароль должен быть не короче 10 символов')
          await choosePassword(setup, PASSWORD, `${PASSWORD}!`)
          expect(await fieldError(setup.page, 'Повторите пароль')).toBe('Пароли не совпадают')
          expect(await fitsWidth(setup)).toBe(true)
          await choosePassword(setup, PASSWORD)
          await setup.page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
          await setup.page.getByRole('button', { name: 'Выйти' }).waitFor()
          expect(new URL(setup.page.url()).pathname).toBe(ADMIN_PATHS.leads)

          // Single use: the same link in another tab is refused, and says what to do.
          const again = await open(link.pathname + link.search)
          await choosePassword(again, 'чужой-пароль-12345')
          await again.page.getByText(LINK_INVALID).waitFor()

          // Another device signs in with the chosen password.
          const other = await open(ADMIN_PATHS.leads)
          await signIn(other.page, PASSWORD)
          await other.page.getByRole('button', { name: 'Выйти' }).waitFor()

          // «Сменить пароль» on the first device: a wrong current password is refused, then it changes.
          await setup.page.getByRole('link', { name: 'Пароль', exact: true }).click()
          await setup.page.getByRole('heading', { name: 'Сменить пароль', level: 1 }).waitFor()
          if (scan) expect(await axeViolations(setup.page, 'change password')).toEqual([])
          const change = async (current: string) => {
            await setup.page.getByLabel('Текущий пароль', { exact: true }).fill(current)
            await setup.page.getByLabel('Новый пароль', { exact: true }).fill(NEW_PASSWORD)
            await setup.page.getByLabel('Повторите пароль', { exact: true }).fill(NEW_PASSWORD)
            await setup.page.getByRole('button', { name: 'Сменить пароль' }).click()
          }
          await change('не-тот-пароль')
          await setup.page.getByText('Неверный текущий пароль').waitFor()
          await change(PASSWORD)
          await setup.page.getByText(/^Пароль изменён\. Остальные сеансы завершены/).waitFor()
          expect(await fitsWidth(setup)).toBe(true)

          // The other device is signed out; this one stays; the new password signs in.
          await other.page.reload()
          await other.page.getByRole('heading', { name: 'Вход в управление сайтом' }).waitFor()
          await setup.page.reload()
          await setup.page.getByRole('heading', { name: 'Сменить пароль', level: 1 }).waitFor()
          await signIn(other.page, PASSWORD)
          await other.page.getByText('Неверный пароль').waitFor()
          await signIn(other.page, NEW_PASSWORD)
          await other.page.getByRole('button', { name: 'Выйти' }).waitFor()

          for (const tab of [first, setup, again, other]) expect(tab.errors()).toEqual([])
          // The link's token is printed once: the server's log (warn and above here) never repeats it.
          expect(server.output().split(link.searchParams.get('token')!)).toHaveLength(2)
        } finally {
          // The tabs go first: their keep-alive sockets would hold the server's graceful stop for
          // up to the 5 s it promised them (server/main.ts).
          for (const tab of tabs) await tab.context.close()
          await server.stop()
          server.cleanup()
          await schema?.drop()
        }
      })
  })
