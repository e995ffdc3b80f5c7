// The catalogue's product writes (decision 025) on both databases: brand, availability, old price,
// featured; the gallery and the characteristics written with their record in one transaction; the
// rule that product.image is the gallery's first whichever way it is written; the Russian 400s; and
// the new models public only while their record is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN, AUTH, pngImage } from '../api/helpers'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`product writes on ${dialect.name}`, () => {
    let t: TestApp
    let section: number
    let red: Buffer
    let blue: Buffer

    async function send(method: 'POST' | 'PATCH', model: string, data: unknown, files: Record<string, Buffer> = {}) {
      const body = multipartBody(
        { data: JSON.stringify(data) },
        Object.entries(files).map(([name, bytes]) => ({
          name,
          filename: `${name}.png`,
          contentType: 'image/png',
          bytes,
        })),
      )
      return t.app.inject({ method, url: `/api/${model}`, ...body, headers: { ...body.headers, ...AUTH } })
    }
    const read = async (id: number, headers: Record<string, string> = AUTH) => {
      const query = {
        where: { id },
        select: {
          id: true,
          product: {
            select: { image: true, price: true, oldPrice: true, vendor: true, availability: true, featured: true },
          },
          images: { select: { image: true, alt: true } },
          properties: { select: { groupName: true, name: true, value: true, unit: true } },
        },
      }
      return t.app.inject({ method: 'GET', url: `/api/structure?${stringifyQuery({ query })}`, headers })
    }
    let count = 0
    const aProduct = (extra: Record<string, unknown> = {}) => ({
      parentId: section,
      typeId: 'product',
      title: `Перфоратор ${++count}`,
      urlFull: `/structure/katalog-test/perforator-${count}`,
      ...extra,
    })

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      red = await pngImage(40, 30, [200, 30, 30])
      blue = await pngImage(30, 40, [30, 30, 200])
      const res = await send('POST', 'structure', {
        parentId: null,
        typeId: 'section',
        title: 'Тестовый раздел',
        urlFull: '/structure/katalog-test/',
      })
      section = res.json().data.id
    })
    afterAll(() => t?.close())

    it('stores brand, availability, old price, featured, the gallery in order and the characteristics', async () => {
      const res = await send(
        'POST',
        'structure',
        aProduct({
          product: { price: 9000, oldPrice: 12000, vendor: 'Мастер Про', availability: 'on_order', featured: true },
          images: [{ alt: 'Спереди' }, { alt: 'Сбоку' }],
          properties: [
            { groupName: 'Электрика', name: 'Мощность', value: '800', unit: 'Вт' },
            { name: 'Масса', value: '2,4', unit: 'кг' },
          ],
        }),
        { 'images.0.image': red, 'images.1.image': blue },
      )
      expect(res.statusCode, res.body).toBe(201)
      const record = (await read(res.json().data.id)).json().data
      expect(record.images.map((i: { alt: string }) => i.alt)).toEqual(['Спереди', 'Сбоку'])
      expect(record.images[0].image).toMatch(/^uploads\/[0-9a-f]{16}\.40x30\.png$/)
      expect(record.product).toEqual({
        image: record.images[0].image,
        price: 9000,
        oldPrice: 12000,
        vendor: 'Мастер Про',
        availability: 'on_order',
        featured: true,
      })
      expect(record.properties).toEqual([
        { groupName: 'Электрика', name: 'Мощность', value: '800', unit: 'Вт' },
        { groupName: null, name: 'Масса', value: '2,4', unit: 'кг' },
      ])

      // Reordered: the main image follows the gallery's new first picture.
      const [first, second] = record.images
      const patched = await send('PATCH', 'structure', { id: record.id, images: [second, first] })
      expect(patched.statusCode, patched.body).toBe(200)
      const after = (await read(record.id)).json().data
      expect(after.product.image).toBe(second.image)
      // Emptied: no main image either.
      await send('PATCH', 'structure', { id: record.id, images: [] })
      expect((await read(record.id)).json().data.product.image).toBeNull()
    })

    it('keeps a client that writes only product.image working: it becomes the gallery’s first picture', async () => {
      const created = await send('POST', 'structure', aProduct({ product: { price: 100 } }), { 'product.image': red })
      expect(created.statusCode, created.body).toBe(201)
      const id = created.json().data.id
      const redPath = (await read(id)).json().data.product.image
      expect((await read(id)).json().data.images).toEqual([{ image: redPath, alt: null }])

      const withGallery = await send('PATCH', 'structure', { id, images: [{ image: redPath }, { image: redPath }] })
      expect(withGallery.statusCode).toBe(200)
      // The product model written on its own (PATCH /api/product) with a new image: the first is replaced.
      const flat = await send('PATCH', 'product', { structureId: id }, { image: blue })
      expect(flat.statusCode, flat.body).toBe(200)
      const record = (await read(id)).json().data
      expect(record.images).toHaveLength(2)
      expect(record.images[0].image).toBe(record.product.image)
      expect(record.images[0].image).toMatch(/\.30x40\.png$/)
      expect(record.images[1].image).toBe(redPath)
      // null removes the main picture; the next one becomes the main image.
      await send('PATCH', 'product', { structureId: id, image: null })
      const last = (await read(id)).json().data
      expect(last.images).toEqual([{ image: redPath, alt: null }])
      expect(last.product.image).toBe(redPath)
    })

    it('refuses an old price that is not above the price, or one without a price, naming the field; nothing is written', async () => {
      const below = await send('POST', 'structure', aProduct({ product: { price: 5000, oldPrice: 5000 } }))
      expect(below.statusCode).toBe(400)
      expect(below.json().errors['product.oldPrice']).toMatch(/Старая цена должна быть больше цены/)
      const urlFull = `/structure/katalog-test/perforator-${count}`
      const missing = await t.app.inject({
        method: 'GET',
        url: `/api/structure?${stringifyQuery({ query: { where: { urlFull } } })}`,
        headers: AUTH,
      })
      expect(missing.statusCode).toBe(404)

      const alone = await send('POST', 'structure', aProduct({ product: { oldPrice: 5000 } }))
      expect(alone.statusCode).toBe(400)
      expect(alone.json().errors['product.oldPrice']).toBe('Старая цена указывается только вместе с ценой')

      // Checked against the stored price when only the old one is written.
      const ok = await send('POST', 'structure', aProduct({ product: { price: 5000, oldPrice: 6000 } }))
      const id = ok.json().data.id
      const flat = await send('PATCH', 'product', { structureId: id, oldPrice: 4000 })
      expect(flat.statusCode).toBe(400)
      expect(flat.json().errors.oldPrice).toMatch(/больше цены/)
      expect((await read(id)).json().data.product.oldPrice).toBe(6000)
    })

    it('refuses a bad availability, control characters, too long texts and too many pictures or rows', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ product: { availability: 'soon' } }, 'product.availability'],
        [{ properties: [{ name: 'Мощ\u0007ность', value: '1' }] }, 'properties.0.name'],
        [{ properties: [{ name: 'Цвет', value: '' }] }, 'properties.0.value'],
        [{ properties: [{ name: 'Цвет', value: 'к', unit: 'x'.repeat(51) }] }, 'properties.0.unit'],
        [{ product: { vendor: 'В'.repeat(201) } }, 'product.vendor'],
        [{ images: [{ image: 'uploads/../../etc/passwd' }] }, 'images.0.image'],
      ]
      for (const [extra, field] of cases) {
        const res = await send('POST', 'structure', aProduct(extra))
        expect(res.statusCode, field).toBe(400)
        expect(Object.keys(res.json().errors), field).toContain(field)
      }
      const rows = Array.from({ length: 201 }, (_, i) => ({ name: `Свойство ${i}`, value: '1' }))
      const tooMany = await send('POST', 'structure', aProduct({ properties: rows }))
      expect(tooMany.statusCode).toBe(400)
      expect(tooMany.json().errors.properties).toMatch(/200/)
      const pictures = Array.from({ length: 31 }, () => ({ image: 'uploads/x.png' }))
      const tooManyImages = await send('POST', 'structure', aProduct({ images: pictures }))
      expect(tooManyImages.statusCode).toBe(400)
      expect(tooManyImages.json().errors.images).toMatch(/30/)
      // The lists are written only with their record.
      expect((await send('POST', 'productImages', { structureId: section, image: 'uploads/x.png' })).statusCode).toBe(
        404,
      )
    })

    it('shows the gallery and the characteristics to the public only while the record is public', async () => {
      const created = await send(
        'POST',
        'structure',
        aProduct({ product: { price: 10 }, images: [{ alt: 'Фото' }], properties: [{ name: 'Цвет', value: 'синий' }] }),
        { 'images.0.image': red },
      )
      const id = created.json().data.id
      const list = (model: string) =>
        t.app.inject({
          method: 'GET',
          url: `/api/many/${model}?${stringifyQuery({ query: { where: { structureId: id } } })}`,
        })
      expect((await list('productImages')).json().data).toHaveLength(1)
      expect((await list('productProperties')).json().data).toMatchObject([
        { name: 'Цвет', value: 'синий', unit: null },
      ])
      expect((await read(id, {})).json().data.images).toHaveLength(1)

      await send('PATCH', 'structure', { id, published: false })
      expect((await list('productImages')).json().data).toEqual([])
      expect((await list('productProperties')).json().data).toEqual([])
      expect((await read(id, {})).statusCode).toBe(404)
      // The owner still sees them.
      expect((await read(id)).json().data.properties).toHaveLength(1)
    })

    it('writes a batch of records in one transaction, matched by URL, so a second run changes nothing', async () => {
      const batch = {
        records: [
          { parentId: section, typeId: 'section', title: 'Пакетный раздел', urlFull: '/structure/paket/' },
          {
            parent: 0,
            typeId: 'product',
            title: 'Пакетный товар',
            urlFull: '/structure/paket/tovar',
            product: { price: 700, oldPrice: 900, availability: 'out_of_stock' },
            images: [{ alt: 'Пакет' }],
            properties: [{ name: 'Цвет', value: 'красный' }],
          },
        ],
      }
      const post = () => send('POST', 'batch/structure', batch, { 'records.1.images.0.image': red })
      const first = await post()
      expect(first.statusCode, first.body).toBe(200)
      const { ids, media } = first.json().data
      expect(ids).toHaveLength(2)
      expect(media['records.1.images.0.image']).toMatch(/^uploads\//)
      const again = await post()
      expect(again.json().data.ids).toEqual(ids)
      const record = (await read(ids[1])).json().data
      expect(record.images).toHaveLength(1)
      expect(record.properties).toHaveLength(1)
      expect(record.product).toMatchObject({ price: 700, oldPrice: 900, availability: 'out_of_stock' })

      // One bad record: 400 naming it, and none of the batch is written.
      const bad = await send('POST', 'batch/structure', {
        records: [
          { parentId: section, typeId: 'section', title: 'Не будет', urlFull: '/structure/ne-budet/' },
          {
            parent: 0,
            typeId: 'product',
            title: 'Плохой',
            urlFull: '/structure/ne-budet/x',
            product: { price: 5, oldPrice: 1 },
          },
        ],
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().errors['records.1.product.oldPrice']).toMatch(/больше цены/)
      const gone = await t.app.inject({
        method: 'GET',
        url: `/api/structure?${stringifyQuery({ query: { where: { urlFull: '/structure/ne-budet/' } } })}`,
        headers: AUTH,
      })
      expect(gone.statusCode).toBe(404)

      const unauthorised = await t.app.inject({
        method: 'POST',
        url: '/api/batch/structure',
        ...multipartBody({ data: '{}' }),
      })
      expect(unauthorised.statusCode).toBe(401)
      const tooBig = await send('POST', 'batch/structure', {
        records: Array.from({ length: 201 }, (_, i) => ({ typeId: 'page', title: 'x', urlFull: `/x${i}` })),
      })
      expect(tooBig.statusCode).toBe(400)
    })
  })
}
