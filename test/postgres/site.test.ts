// The same site on PostgreSQL: migrations, demo seed and every screen through one query layer.
// Runs where TEST_DATABASE_URL names a server (CI sets it; docs/contract.md §1).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, titleOf, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'

describe.runIf(TEST_DATABASE_URL)('the site on PostgreSQL', () => {
  let schema: TestSchema
  let t: TestApp
  beforeAll(async () => {
    schema = await createTestSchema()
    t = await buildTestApp({ DATABASE_URL: schema.url })
  })
  afterAll(async () => {
    await t?.close()
    await schema?.drop()
  })

  it('stores the demo content in PostgreSQL', async () => {
    const { n } = await t.app.db
      .selectFrom('structure')
      .select(t.app.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(n)).toBeGreaterThan(20)
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.db)
    expect(rows[0].schema).toMatch(/^vitrina_test_/)
  })

  it.each([
    ['/', 200, 'ТехноМастер — электроинструмент и садовая техника'],
    ['/structure/', 200, 'Каталог'],
    ['/structure/product', 200, 'Дрель-шуруповёрт аккумуляторная 18 В'],
    ['/politika', 200, 'Политика обработки персональных данных'],
    ['/no-such-page', 404, 'Ошибка 404. Такой страницы нет'],
  ])('answers %s with %i and its title', async (url, status, title) => {
    const res = await t.app.inject({ url })
    expect(res.statusCode).toBe(status)
    expect(titleOf(res.body)).toBe(title)
  })

  it('redirects the slash variant and serves the sitemap', async () => {
    expect((await t.app.inject({ url: '/structure' })).headers.location).toBe('/structure/')
    expect((await t.app.inject({ url: '/sitemap.xml' })).body).toContain('/structure/product</loc>')
  })

  it('starts a second site in another schema of the same database, whose migration tables it must not mistake for its own', async () => {
    const other = await createTestSchema()
    try {
      const second = await buildTestApp({ DATABASE_URL: other.url, SEED_DEMO: 'false', ADMIN_TOKEN })
      try {
        const ready = await second.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        expect(ready.json()).toMatchObject({ pendingMigrations: 0 })
        const { rows } = await sql<{ n: string }>`select count(*) as n from kysely_migration_lock`.execute(
          second.app.db,
        )
        expect(Number(rows[0].n)).toBe(1)
      } finally {
        await second.close()
      }
    } finally {
      await other.drop()
    }
  })
})
