// DELETE /api/structure?id=N on a real SQLite file: the record and its parts leave in one
// transaction, its URL answers 410 and leaves the sitemap; a record with children, the home page,
// a stranger and a foreign page are refused with nothing changed; the URL can be taken again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, SITE, type AdminApp } from '../admin/admin-helpers'

let site: AdminApp
let cookie: string
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` }

beforeAll(async () => {
  site = await buildAdminApp()
  cookie = await signIn(site.app)
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

const db = () => site.app.db
const page = (url: string) => site.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
const remove = (id: number | string, headers: Record<string, string> = AUTH) =>
  site.app.inject({ method: 'DELETE', url: `/api/structure?id=${id}`, headers })

async function recordAt(urlFull: string) {
  return db()
    .selectFrom('structure')
    .select(['id', 'parentId'])
    .where('urlFull', '=', urlFull)
    .executeTakeFirstOrThrow()
}

/** Every row of the content tables, to show a refused delete changed nothing. */
async function snapshot() {
  const [structure, product, siteIndex, sliderItem, advantage, goneUrl] = await Promise.all([
    db().selectFrom('structure').selectAll().orderBy('id').execute(),
    db().selectFrom('product').selectAll().orderBy('structureId').execute(),
    db().selectFrom('siteIndex').selectAll().orderBy('structureId').execute(),
    db().selectFrom('sliderItem').selectAll().orderBy('id').execute(),
    db().selectFrom('advantage').selectAll().orderBy('id').execute(),
    db().selectFrom('goneUrl').selectAll().orderBy('urlFull').execute(),
  ])
  return { structure, product, siteIndex, sliderItem, advantage, goneUrl }
}

describe('DELETE /api/structure?id=N', () => {
  it('deletes a product with its part: its page answers 410, it leaves the sitemap and its section', async () => {
    const url = '/structure/power-tools/jigsaw'
    const { id } = await recordAt(url)
    expect((await page(url)).statusCode).toBe(200)
    expect((await page('/sitemap.xml')).body).toContain(url)
    expect((await page('/structure/power-tools/')).body).toContain('Лобзик электрический')

    const response = await remove(id)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: { id } })
    expect(response.headers['cache-control']).toBe('no-store')

    expect((await page(url)).statusCode).toBe(410)
    expect((await page('/sitemap.xml')).body).not.toContain(url)
    expect((await page('/structure/power-tools/')).body).not.toContain('Лобзик электрический')
    expect(await db().selectFrom('structure').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined()
    expect(await db().selectFrom('product').select('structureId').where('structureId', '=', id).execute()).toEqual([])
    expect(await db().selectFrom('goneUrl').select('urlFull').where('urlFull', '=', url).execute()).toHaveLength(1)
    // The section it sat in is untouched.
    expect((await page('/structure/power-tools/')).statusCode).toBe(200)

    const again = await remove(id)
    expect(again.statusCode).toBe(404)
    expect(again.json().error.message).toBe(`Запись structure с id = ${id} не найдена`)
  })

  it('refuses a record with children (409) and the home page (409), changing nothing', async () => {
    const before = await snapshot()
    const section = await remove((await recordAt('/structure/garden/')).id)
    expect(section.statusCode).toBe(409)
    expect(section.json().error).toEqual({
      code: 'has_children',
      message: 'Сначала удалите или перенесите вложенные записи',
    })
    const home = await remove((await recordAt('/')).id)
    expect(home.statusCode).toBe(409)
    expect(home.json().error.message).toBe('Главную страницу сайта («/») удалить нельзя')
    expect(await snapshot()).toEqual(before)
    expect((await page('/structure/garden/')).statusCode).toBe(200)
  })

  it('answers a bad id with 400 and another model with 405, in Russian', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', '']) {
      const response = await remove(id)
      expect(response.statusCode, id).toBe(400)
      expect(response.json().error.message).toBe('Укажите id удаляемой записи: целое положительное число')
    }
    const noId = await site.app.inject({ method: 'DELETE', url: '/api/structure', headers: AUTH })
    expect(noId.statusCode).toBe(400)
    const other = await site.app.inject({ method: 'DELETE', url: '/api/orderType?id=1', headers: AUTH })
    expect(other.statusCode).toBe(405)
    expect(other.json().error.message).toMatch(/не удаляются/)
    const leads = await site.app.inject({ method: 'DELETE', url: '/api/feedback?id=1', headers: AUTH })
    expect(leads.statusCode).toBe(404)
  })

  it('needs the token or a session from the site itself', async () => {
    const { id } = await recordAt('/structure/garden/trimmer')
    expect((await remove(id, {})).statusCode).toBe(401)
    expect((await remove(id, { authorization: 'Bearer wrong-token' })).statusCode).toBe(403)
    expect((await remove(id, { cookie, origin: 'https://evil.example' })).statusCode).toBe(403)
    expect((await remove(id, { cookie })).statusCode).toBe(403)
    expect((await page('/structure/garden/trimmer')).statusCode).toBe(200)

    const bySession = await remove(id, { cookie, origin: SITE })
    expect(bySession.statusCode).toBe(200)
    expect((await page('/structure/garden/trimmer')).statusCode).toBe(410)
  })

  it('a new record at a deleted URL serves that record, no longer 410', async () => {
    const url = '/structure/garden/chainsaw'
    const { id, parentId } = await recordAt(url)
    expect((await remove(id)).statusCode).toBe(200)
    expect((await page(url)).statusCode).toBe(410)

    const { payload, headers } = multipartBody({
      data: JSON.stringify({ parentId, typeId: 'product', title: 'Бензопила новая', urlFull: url }),
    })
    const created = await site.app.inject({
      method: 'POST',
      url: '/api/structure',
      payload,
      headers: { ...headers, ...AUTH },
    })
    expect(created.statusCode).toBe(201)
    const response = await page(url)
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('Бензопила новая')
    expect(await db().selectFrom('goneUrl').select('urlFull').where('urlFull', '=', url).execute()).toEqual([])
  })
})
