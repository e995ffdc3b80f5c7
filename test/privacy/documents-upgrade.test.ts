// A site whose database was made before the documents on personal data (issue 24, decision 027)
// gets the ones it lacks when it starts: the three pages answer 200 and the lead form links to the
// consent. What the owner has is left alone: an edited text, a document deleted (410) or moved
// (301) to another path of the home page. On SQLite and on PostgreSQL.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { addMissingDocuments } from '../../server/content/documents'
import { changeRecordUrl } from '../../server/content/moved-urls'
import { seedDemoContent, storeInFolder } from '../../server/catalogue/demo-seed'
import { deleteRecordAndParts } from '../../server/content/structure-store'
import { openDatabase, type Db } from '../../server/data/db'
import { WriteDoor } from '../../server/catalogue/write-door'
import { tempDir, testConfig } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'

const DOCUMENTS = ['/politika', '/soglasie', '/cookies']

/** The policy and consent as the release before issue 24 seeded them (no /cookies then) */
const PRE_TEMPLATE_PAGES = [
  {
    slug: 'politika',
    title: 'Политика обработки персональных данных',
    content: [
      'Настоящая политика определяет порядок обработки персональных данных посетителей сайта ООО «ТехноМастер» (далее — Оператор) в соответствии с Федеральным законом № 152-ФЗ «О персональных данных».',
      'Оператор обрабатывает имя, номер телефона и адрес электронной почты, которые посетитель указывает в форме заявки, исключительно для связи с ним по его заявке.',
      'Персональные данные хранятся на серверах, расположенных на территории Российской Федерации, и не передаются третьим лицам, кроме случаев, предусмотренных законом.',
      'Посетитель может отозвать согласие на обработку персональных данных, направив письмо на адрес info@technomaster.example. Данные удаляются в течение 30 дней с момента получения отзыва.',
    ].join('\n\n'),
  },
  {
    slug: 'soglasie',
    title: 'Согласие на обработку персональных данных',
    content: [
      'Отправляя заявку на сайте, я свободно, своей волей и в своём интересе даю согласие ООО «ТехноМастер» на обработку моих персональных данных: имени, номера телефона и адреса электронной почты.',
      'Цель обработки — связь со мной для уточнения деталей заявки и оформления заказа. Согласие действует до достижения цели обработки или до его отзыва.',
      'Согласие может быть отозвано мной в любой момент путём направления письменного заявления на адрес info@technomaster.example.',
    ].join('\n\n'),
  },
]

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const DATABASES = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
] as const

/**
 * A site's database with the demo shop, changed by `before` as an older release or the owner left
 * it (the app is not running); then the app started on it, as after an upgrade.
 */
async function upgradedSite(name: (typeof DATABASES)[number]['name'], before: (db: Db) => Promise<void>): Promise<App> {
  const dir = tempDir()
  const schema = name === 'PostgreSQL' ? await createTestSchema() : null
  cleanups.push(async () => {
    await schema?.drop()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  const config = testConfig(dir, schema ? { DATABASE_URL: schema.url } : {})
  const db = await openDatabase(config.database)
  try {
    await seedDemoContent(new WriteDoor(db, { indexNowOrigin: null }), storeInFolder(path.join(dir, 'media')))
    await before(db)
  } finally {
    await db.destroy()
  }
  const app = await buildApp(config)
  cleanups.push(() => app.close())
  await app.ready()
  return app
}

async function idOf(db: Db, urlFull: string): Promise<number> {
  return (await db.selectFrom('structure').select('id').where('urlFull', '=', urlFull).executeTakeFirstOrThrow()).id
}

async function records(db: Db): Promise<number> {
  const row = await db
    .selectFrom('structure')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

for (const database of DATABASES) {
  describe.skipIf(!database.available)(`the documents on a site made before them, on ${database.name}`, () => {
    it('are added at start: the three pages answer 200 and the lead form links to the consent', async () => {
      // The state of a database made before the documents: none of the three records.
      const app = await upgradedSite(database.name, async (db) => {
        await db.deleteFrom('structure').where('urlFull', 'in', DOCUMENTS).execute()
      })
      for (const url of DOCUMENTS) expect((await app.inject({ url })).statusCode, url).toBe(200)
      const form = await app.inject({ url: '/zayavka' })
      expect(form.statusCode).toBe(200)
      expect(form.body).toContain('href="/soglasie"')
      const consent = await app.inject({ url: '/api/lead-consent?path=/' })
      expect(consent.json<{ data: { content: string } }>().data.content).toContain('даю согласие')
      const rows = await app.db
        .selectFrom('structure')
        .select(['urlFull', 'parentId', 'typeId', 'published'])
        .where('urlFull', 'in', DOCUMENTS)
        .execute()
      expect(rows).toHaveLength(3)
      for (const row of rows) expect(row).toMatchObject({ parentId: 1, typeId: 'page', published: 1 })
      // Started again (another process, the next deploy): nothing is added twice.
      const count = await records(app.db)
      expect(await addMissingDocuments(app.writeDoor)).toEqual([])
      expect(await records(app.db)).toBe(count)
    })

    it('leave alone an edited text, a deleted document and a moved one', async () => {
      let count = 0
      const app = await upgradedSite(database.name, async (db) => {
        await db
          .updateTable('structure')
          .set({ content: 'Наша собственная политика.' })
          .where('urlFull', '=', '/politika')
          .execute()
        const door = new WriteDoor(db, { indexNowOrigin: null })
        const cookies = await idOf(db, '/cookies')
        await door.write((unit) => deleteRecordAndParts(unit, cookies, '/cookies'))
        const consent = { id: await idOf(db, '/soglasie'), urlFull: '/soglasie' }
        await door.write((unit) => changeRecordUrl(unit, consent, '/dokumenty/soglasie'))
        count = await records(db)
      })
      expect(await records(app.db)).toBe(count)
      expect((await app.inject({ url: '/politika' })).body).toContain('Наша собственная политика.')
      expect((await app.inject({ url: '/cookies' })).statusCode).toBe(410)
      const old = await app.inject({ url: '/soglasie' })
      expect(old.statusCode).toBe(301)
      expect(old.headers.location).toBe('/dokumenty/soglasie')
      expect((await app.inject({ url: '/zayavka' })).body).toContain('href="/dokumenty/soglasie"')
    })

    it('replace the demo’s older texts left as they were, and keep one the owner edited', async () => {
      const [policy, consent] = PRE_TEMPLATE_PAGES
      const app = await upgradedSite(database.name, async (db) => {
        // The demo shop as the release before issue 24 seeded it: its policy and consent, no /cookies.
        await db.deleteFrom('structure').where('urlFull', '=', '/cookies').execute()
        for (const page of PRE_TEMPLATE_PAGES) {
          await db
            .updateTable('structure')
            .set({ title: page.title, content: page.content })
            .where('urlFull', '=', `/${page.slug}`)
            .execute()
        }
        const edited = consent.content.replace('info@technomaster.example', 'hello@shop.example')
        await db.updateTable('structure').set({ content: edited }).where('urlFull', '=', '/soglasie').execute()
      })
      const shown = await app.inject({ url: '/politika' })
      expect(shown.body).toContain('Оператор персональных данных — [не указано]')
      expect(policy.content).toContain('Данные удаляются в течение 30 дней')
      expect(shown.body).not.toContain('Данные удаляются в течение 30 дней')
      const kept = await app.inject({ url: '/soglasie' })
      expect(kept.body).toContain('hello@shop.example')
      expect((await app.inject({ url: '/cookies' })).statusCode).toBe(200)
    })

    it('are not added to a database without a home page', async () => {
      const app = await upgradedSite(database.name, async (db) => {
        await db.deleteFrom('structure').where('urlFull', 'in', DOCUMENTS).execute()
        await db.updateTable('structure').set({ urlFull: '/old-home/' }).where('urlFull', '=', '/').execute()
      })
      for (const url of DOCUMENTS) expect((await app.inject({ url })).statusCode, url).toBe(404)
    })
  })
}
