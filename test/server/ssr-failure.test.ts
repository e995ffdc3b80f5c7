// When a page's data cannot be loaded, the layout shows the error view (icon + status), not a crash.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, titleOf, type TestApp } from '../helpers/build-test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

it('shows the error view with status 500 when the record data fails to load', async () => {
  await t.app.content.routes() // the route map is loaded; now the product table disappears
  await sql`DROP TABLE product`.execute(t.app.db)
  const res = await t.app.inject({ url: '/structure/product' })
  expect(res.statusCode).toBe(500)
  expect(res.body).toContain('data-status="500"')
  expect(res.body).toContain('class="error-view__icon"')
  expect(res.body).not.toContain('Страницы не существует:(')
  expect(titleOf(res.body)).toBe('Ошибка 500')
  expect(res.body).not.toMatch(/SqliteError|no such table|at .*\.ts:\d+/)
  // The header still shows the site, so the visitor can call or go home.
  expect(res.body).toContain('href="tel:+74951234567"')
})
