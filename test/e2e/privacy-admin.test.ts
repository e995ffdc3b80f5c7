// «Персональные данные» in Chromium against the production build: the warning while the operator's
// details are empty, then a person's data on request: found by a phone typed another way than the
// visitor typed it, downloaded as a file, deleted, with nothing of the person left in any table
// of the database and the audit log showing what was done.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { cookieNoticeVersionOf } from '../../server/content/documents'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { axeViolations, openSignedIn, startAdminServer } from './admin-helpers'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'

const PERSON = { username: 'Евдокия Заречная', email: 'evdokiya@example.ru' }
const VISITOR_IP = '192.0.2.77'
const TRACES = ['Евдокия', 'Заречная', 'evdokiya', '555-44-33', '5554433', VISITOR_IP, 'Evdokiya browser']

const suite = browserSuite(startAdminServer)

async function post(path: string, body: unknown): Promise<number> {
  const response = await fetch(suite.server.url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': VISITOR_IP,
      'user-agent': 'Evdokiya browser',
      ...NOT_KEPT_ALIVE,
    },
    body: JSON.stringify(body),
  })
  return response.status
}

/** The published cookie page's title and text, as the site reads it for the notice's version. */
function cookiesPage(): { title: string; content: string | null } | undefined {
  const db = new Database(suite.server.dbPath, { readonly: true })
  try {
    return db.prepare("select title, content from structure where urlFull = '/cookies' and published = 1").get() as
      { title: string; content: string | null } | undefined
  } finally {
    db.close()
  }
}

/** Every row of every table in the SQLite file, as text. */
function everyTable(): Map<string, string> {
  const db = new Database(suite.server.dbPath, { readonly: true })
  try {
    const names = (
      db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as {
        name: string
      }[]
    ).map((row) => row.name)
    return new Map(names.map((name) => [name, JSON.stringify(db.prepare(`select * from "${name}"`).all())]))
  } finally {
    db.close()
  }
}

describe('personal data in the back office', () => {
  it('warns while the operator is unnamed, and the warning goes once the details are saved', async () => {
    const { page, context, errors } = await openSignedIn(suite.browser, suite.server, '/admin/privacy')
    const warning = page.getByRole('alert').filter({ hasText: 'Не заполнены данные оператора' })
    await warning.waitFor()
    expect(await axeViolations(page, 'privacy')).toEqual([])
    await page.getByLabel('Оператор (название организации или ФИО)').fill('ООО «ТехноМастер»')
    await page.getByLabel('ИНН').fill('12345')
    await page.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByText('ИНН: 10 или 12 цифр').waitFor()
    await page.getByLabel('ИНН').fill('7701234567')
    await page.getByLabel('Адрес оператора').fill('г. Москва, ул. Примерная, д. 1')
    await page.getByRole('button', { name: 'Сохранить' }).click()
    await warning.waitFor({ state: 'detached' })
    await page.getByRole('cell', { name: 'Изменены данные оператора' }).first().waitFor()
    expect(errors()).toEqual([])
    await context.close()
  })

  it('finds a person by a phone in another format, exports and deletes everything about them', async () => {
    expect(await post('/api/feedback', { ...PERSON, phone: '+7 (916) 555-44-33', consent: true, sourceUrl: '/' })).toBe(
      201,
    )
    expect(await post('/api/feedback', { ...PERSON, phone: '89165554433', consent: true })).toBe(201)
    // The version the site's notice shows (of its /cookies page): the log takes no other (issue #36).
    const version = cookieNoticeVersionOf(cookiesPage())
    expect(version).toMatch(/^sha256:/)
    expect(await post('/api/cookie-choice', { analytics: false, version })).toBe(204)
    const other = await fetch(suite.server.url + '/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.99', ...NOT_KEPT_ALIVE },
      body: JSON.stringify({ username: 'Сосед', phone: '+7 916 000-00-01', email: 'n@example.ru', consent: true }),
    })
    expect(other.status).toBe(201)

    const { page, context, errors } = await openSignedIn(suite.browser, suite.server, '/admin/privacy')
    await page.getByLabel('Телефон или e-mail').fill('8 916 555 44 33')
    await page.getByRole('button', { name: 'Найти' }).click()
    await page.getByText('Найдено: заявок — 2').waitFor()
    await page.getByText('выборов cookie — 1', { exact: false }).waitFor()

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Скачать данные (JSON)' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^personal-data-\d{8}\.json$/)
    const file = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
      leads: { username: string; consentIp: string }[]
      cookieChoices: unknown[]
    }
    expect(file.leads.map((lead) => lead.username)).toEqual([PERSON.username, PERSON.username])
    expect(file.leads[0].consentIp).toBe(VISITOR_IP)
    expect(file.cookieChoices).toHaveLength(1)

    await page.getByRole('button', { name: 'Удалить всё' }).click()
    // The question takes focus on its safe answer; only «Подтвердить» erases.
    const question = page.getByRole('group', { name: /^Удалить заявки человека/ })
    await question.waitFor()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Отменить')
    await question.getByRole('button', { name: 'Подтвердить' }).click()
    await page.getByText('Удалено: заявок — 2').waitFor()
    await page.getByRole('cell', { name: 'Удаление данных человека' }).first().waitFor()

    for (const [table, text] of everyTable()) {
      for (const trace of TRACES)
        expect(text.toLowerCase(), `${table} holds ${trace}`).not.toContain(trace.toLowerCase())
    }
    expect(everyTable().get('feedback')).toContain('Сосед')
    expect(errors()).toEqual([])
    await context.close()
  })
})
