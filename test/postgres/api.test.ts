// The data API and the lead intake on PostgreSQL: the same queries and transactions as on SQLite.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sizeLegacyUploads } from '../../server/media/legacy-uploads'
import { imageColumns } from '../../server/model-api/registry'
import { stringifyQuery } from '../../src/api/query-string'
import { ADMIN_TOKEN, AUTH, pngImage, STRUCTURE_LOAD } from '../api/helpers'
import { multipartBody } from '../helpers/multipart'
import { buildTestApp, titleOf, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'

describe.runIf(TEST_DATABASE_URL)('the API on PostgreSQL', () => {
  let schema: TestSchema
  let t: TestApp
  beforeAll(async () => {
    schema = await createTestSchema()
    t = await buildTestApp({ DATABASE_URL: schema.url, ADMIN_TOKEN, LEAD_MIN_FILL_SECONDS: '0' })
  })
  afterAll(async () => {
    await t?.close()
    await schema?.drop()
  })

  const get = (path: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${path}?${stringifyQuery(params)}`, headers })

  it('answers the spec’s structure load', async () => {
    const res = await get('/api/many/structure', {
      query: STRUCTURE_LOAD,
      ttl: 120,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toEqual([
      expect.objectContaining({ urlFull: '/', index: expect.objectContaining({ tel: '+7 (495) 123-45-67' }) }),
    ])
  })

  it('filters, orders and nests relations the same way', async () => {
    const res = await get('/api/many/structure', {
      query: {
        select: {
          title: true,
          children: {
            select: { title: true, product: { select: { price: true } } },
            orderBy: { sort: 'asc' },
            take: 2,
          },
        },
        where: {
          AND: [{ typeId: 'section' }, { urlFull: { startsWith: '/structure/' } }, { NOT: { urlFull: '/structure/' } }],
        },
        orderBy: { sort: 'asc' },
      },
    })
    expect(res.statusCode).toBe(200)
    const sections = res.json().data
    expect(sections.map((s: { title: string }) => s.title)).toEqual([
      'Электроинструмент',
      'Садовая техника',
      'Ручной инструмент',
      'Крепёж',
    ])
    for (const s of sections) {
      expect(s.children).toHaveLength(2)
      expect(typeof s.children[0].product.price).toBe('number')
    }
    const bad = await get('/api/many/structure', { query: { where: { nope: 1 } } })
    expect(bad.statusCode).toBe(400)
  })

  it('creates a product with an image through a multipart write and serves its page at once', async () => {
    const parent = (
      await get('/api/structure', { query: { where: { urlFull: '/structure/garden/' }, select: { id: true } } })
    ).json().data
    const body = multipartBody(
      {
        data: JSON.stringify({
          parentId: parent.id,
          typeId: 'product',
          title: 'Культиватор',
          urlFull: '/structure/garden/cultivator',
          product: { article: 'СТ-2099', price: 31990 },
        }),
      },
      [{ name: 'product.image', filename: 'c.png', contentType: 'image/png', bytes: await pngImage(32, 32) }],
    )
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/structure',
      payload: body.payload,
      headers: { ...body.headers, ...AUTH },
    })
    expect(res.statusCode).toBe(201)
    const page = await t.app.inject({ url: '/structure/garden/cultivator' })
    expect(page.statusCode).toBe(200)
    expect(titleOf(page.body)).toBe('Культиватор')
    expect(page.body).toContain(`srcSet="/media/${res.json().data.product.image.replace(/\.png$/, '')}-32.avif"`) // its one variant: no width to choose by
  })

  it('deletes a product with its part in one transaction: 410, out of the sitemap; a section is refused', async () => {
    const idOf = async (urlFull: string) =>
      (await get('/api/structure', { query: { where: { urlFull }, select: { id: true } } })).json().data.id as number
    const remove = (id: number) => t.app.inject({ method: 'DELETE', url: `/api/structure?id=${id}`, headers: AUTH })
    const url = '/structure/garden/trimmer'
    const id = await idOf(url)
    const deleted = await remove(id)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ data: { id } })
    expect((await t.app.inject({ url })).statusCode).toBe(410)
    expect((await t.app.inject({ url: '/sitemap.xml' })).body).not.toContain(url)
    expect(await t.app.db.selectFrom('product').select('structureId').where('structureId', '=', id).execute()).toEqual(
      [],
    )

    const section = await remove(await idOf('/structure/garden/'))
    expect(section.statusCode).toBe(409)
    expect(section.json().error.message).toBe('Сначала удалите или перенесите вложенные записи')
    expect((await t.app.inject({ url: '/structure/garden/' })).statusCode).toBe(200)
  })

  it('gives uploads stored before sized names their sized name, as at start-up', async () => {
    const legacy = `uploads/${'b'.repeat(32)}.png`
    fs.mkdirSync(path.join(t.config.mediaDir, 'uploads'), { recursive: true })
    fs.writeFileSync(path.join(t.config.mediaDir, legacy), await pngImage(48, 24))
    await t.app.db.updateTable('advantage').set({ image: legacy }).where('id', '=', 1).execute()
    expect(await sizeLegacyUploads(t.app.writeDoor, imageColumns(), t.app.mediaStorage, () => false)).toBe(1)
    const row = await t.app.db.selectFrom('advantage').select('image').where('id', '=', 1).executeTakeFirstOrThrow()
    expect(row.image).toBe(`uploads/${'b'.repeat(32)}.48x24.png`)
  })

  it('stores a lead with its consent record and answers a repeated idempotency key with the first id', async () => {
    const lead = { username: 'Пётр', phone: '8 999 123-45-67', email: 'petr@example.ru', consent: true }
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: lead,
      headers: { 'idempotency-key': 'pg-key-1' },
    })
    expect(first.statusCode).toBe(201)
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: lead,
      headers: { 'idempotency-key': 'pg-key-1' },
    })
    expect(again.json().data.id).toBe(first.json().data.id)
    const rows = await t.app.db.selectFrom('feedback').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ username: 'Пётр', phoneE164: '+79991234567', spam: 0 })
    expect(rows[0].consentAt).toBeTruthy()
    const read = await get('/api/many/feedback', {}, AUTH)
    expect(read.json().data).toEqual([expect.objectContaining({ username: 'Пётр', email: 'petr@example.ru' })])
  })
})
