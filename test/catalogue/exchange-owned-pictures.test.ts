// «Картинки», the fifth of the fields 1C overwrites (issue 46, item 4; docs/decisions/044-onec-owned-fields.md),
// on SQLite and PostgreSQL, through the protocol as 1C drives it: switched off, a product 1C creates
// still takes 1C's picture, and a later exchange keeps the gallery the owner put on the site while it
// still updates the title; switched on again, the next exchange puts 1C's picture in its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH, jpegImage, pngImage } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { EXCHANGE_ENV, OneCClient, enableExchange, importXml, injectTransport } from '../helpers/one-c'

const goods = (picture: string, title = 'Перфоратор П-26') =>
  importXml({
    products: [{ id: 'prod-hammer', name: title, article: 'П-26', pictures: [`import_files/p/${picture}`] }],
  })

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Картинки» of the fields 1C overwrites, on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient
    let first: Buffer
    let second: Buffer
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      await enableExchange(t.app)
      first = await jpegImage(64, 48)
      second = await jpegImage(48, 64)
    })
    afterAll(async () => {
      await t?.close()
    })

    const setPictures = async (on: boolean) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: AUTH,
        payload: { 'exchange.overwrite.images': String(on) },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    const exchange = async (files: Record<string, Buffer>) => {
      const answers = await client.exchange(files)
      expect(answers.map((a) => a.lines[0])).toEqual(['success'])
    }
    const hammer = async () => {
      const row = await t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'structure.title', 'structure.urlFull', 'product.image'])
        .where('exchangeRecord.externalId', '=', 'prod-hammer')
        .executeTakeFirstOrThrow()
      const gallery = await t.app.db
        .selectFrom('productImage')
        .select('image')
        .where('structureId', '=', row.id)
        .orderBy('sort')
        .execute()
      const page = await t.app.inject({ url: row.urlFull, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      expect(page.statusCode).toBe(200)
      return { ...row, gallery: gallery.map((g) => g.image), page: page.body }
    }

    it('gives a product 1C creates its picture though «Картинки» is off', async () => {
      await setPictures(false)
      expect(t.app.settings.current().exchangeOverwrite).toEqual(['price', 'stock', 'title', 'description'])
      await exchange({ 'import_files/p/first.jpg': first, 'import.xml': goods('first.jpg') })
      const made = await hammer()
      expect(made.gallery).toEqual([expect.stringMatching(/^uploads\/.+\.64x48\.jpg$/)])
      expect(made.image).toBe(made.gallery[0])
    })

    it('keeps the gallery the owner set on the site at a later exchange, and still takes the title', async () => {
      const { id } = await hammer()
      const body = multipartBody({ data: JSON.stringify({ id, images: [{ alt: 'Фото магазина' }] }) }, [
        { name: 'images.0.image', filename: 'own.png', contentType: 'image/png', bytes: await pngImage(40, 30) },
      ])
      const edit = await t.app.inject({
        method: 'PATCH',
        url: '/api/structure',
        payload: body.payload,
        headers: { ...body.headers, ...AUTH },
      })
      expect(edit.statusCode, edit.body).toBe(200)
      const own = (await hammer()).gallery
      expect(own).toEqual([expect.stringMatching(/^uploads\/.+\.40x30\.png$/)])

      await exchange({ 'import_files/p/second.jpg': second, 'import.xml': goods('second.jpg', 'Перфоратор П-26М') })
      const after = await hammer()
      expect(after.title).toBe('Перфоратор П-26М')
      expect(after.gallery).toEqual(own)
      expect(after.image).toBe(own[0])
      expect(after.page).toContain(own[0].replace(/\.png$/, ''))
      expect(after.page).not.toMatch(/\.48x64\.jpg/)
    })

    it('with «Картинки» on again, puts 1C’s picture in place of the site’s', async () => {
      await setPictures(true)
      await exchange({ 'import_files/p/second.jpg': second, 'import.xml': goods('second.jpg', 'Перфоратор П-26М') })
      const after = await hammer()
      expect(after.gallery).toEqual([expect.stringMatching(/^uploads\/.+\.48x64\.jpg$/)])
      expect(after.image).toBe(after.gallery[0])
      expect(after.page).toContain(after.gallery[0].replace(/\.jpg$/, ''))
      expect(after.page).not.toMatch(/\.40x30\.png/)
    })
  })
}
