// A variant's own picture (issue 46 item 3, docs/decisions/043-variants.md), on SQLite and
// PostgreSQL. The editor's «Варианты» API uploads one with a new variant (multipart, the media store),
// replaces it and removes it; the chosen variant's page leads with it and its YML offer names it
// first; a path not uploaded, a file that is no picture and a file in another field are refused in
// Russian, nothing written. 1C's offers of characteristics give their variants their first
// «Картинка» (a file 1C did not send is logged, the exchange succeeds); such a picture is read-only
// in the editor while «Картинки» is on, and with «Картинки» off the site's picture of a variant
// stays while a variant the run creates still takes 1C's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ONE_C_VARIANT, VARIANT_IMAGE_UPLOAD } from '../../src/catalogue/variant-fields'
import { ADMIN_TOKEN, AUTH, jpegImage, pngImage } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { EXCHANGE_ENV, importXml, injectTransport, OneCClient, offersXml, type Offer } from '../helpers/one-c'
import { parseYml } from '../helpers/yml-rules'

const PRICE_TYPES = [{ id: 'pt-retail', name: 'Розничная' }]
const CATALOGUE = importXml({ products: [{ id: 'rug', name: 'Ковёр Лоза', article: 'ЛЗ' }] })
const rug = (id: string, colour: string, pictures?: string[]): Offer => ({
  id: `rug#${id}`,
  name: `Ковёр Лоза (${colour})`,
  article: `ЛЗ-${id}`,
  prices: { 'pt-retail': 4990 },
  quantity: 3,
  characteristics: { Цвет: colour },
  pictures,
})
/** What names a stored picture on a page and in the feed, whatever size or copy of it is shown */
const hashOf = (image: string | null) => /^uploads\/([0-9a-f]{16})\./.exec(image ?? '')?.[1] ?? 'none'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a variant's picture on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient
    const pictures: Record<'blue' | 'grey' | 'site' | 'replaced', Buffer> = {} as never
    beforeAll(async () => {
      t = await dialect.build(
        { ADMIN_TOKEN, ...EXCHANGE_ENV, YANDEX_FEED: 'true', YANDEX_FEED_COMPANY: 'ООО «ТехноМастер»' },
        { exchangeStepMs: 1 },
      )
      client = new OneCClient(injectTransport(t.app))
      pictures.blue = await jpegImage(64, 48)
      pictures.grey = await jpegImage(72, 48)
      pictures.site = await pngImage(40, 30, [0, 120, 200])
      pictures.replaced = await pngImage(44, 30, [200, 120, 0])
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: AUTH,
        payload: { enabled: true, priceType: 'Розничная', zeroStock: 'on_order' },
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(() => t?.close())

    const productOf = (title: string) =>
      t.app.db.selectFrom('structure').select(['id', 'urlFull']).where('title', '=', title).executeTakeFirstOrThrow()
    const variantsOf = (productId: number) =>
      t.app.db
        .selectFrom('productVariant')
        .select(['id', 'externalId', 'title', 'price', 'image'])
        .where('productId', '=', productId)
        .orderBy('sort')
        .execute()
    /** A variant's write as the editor sends it: JSON, or multipart with the picture as the file `image` */
    const write = (method: 'POST' | 'PATCH', path: string, data: object, file?: { name?: string; bytes: Buffer }) => {
      if (!file) return t.app.inject({ method, url: `/api/admin/products/${path}`, headers: AUTH, payload: data })
      const body = multipartBody({ data: JSON.stringify(data) }, [
        { name: file.name ?? 'image', filename: 'picture.png', bytes: file.bytes },
      ])
      return t.app.inject({
        method,
        url: `/api/admin/products/${path}`,
        headers: { ...AUTH, ...body.headers },
        payload: body.payload,
      })
    }
    const page = async (url: string) =>
      (await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })).body
    const feedPicture = async (productId: number, variantId: number) => {
      const feed = parseYml((await t.app.inject({ url: '/feeds/yandex.xml' })).body)
      return feed.offers.find((o) => o.id === `${productId}v${variantId}`)?.fields.picture?.[0] ?? ''
    }
    const settings = async (payload: Record<string, string>) => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: AUTH, payload })
      expect(res.statusCode, res.body).toBe(200)
    }
    const send = async (files: Record<string, Buffer>) => {
      const answers = await client.exchange(files)
      expect(
        answers.map((a) => a.lines[0]),
        answers.map((a) => a.body).join('\n'),
      ).toEqual(
        Object.keys(files)
          .filter((name) => name.endsWith('.xml'))
          .map(() => 'success'),
      )
    }

    it('uploads a picture with a new variant in the editor; the chosen variant’s page and feed offer lead with it', async () => {
      const box = await productOf('Ящик для инструмента')
      const res = await write(
        'POST',
        `${box.id}/variants`,
        {
          title: '26", 660×300×260 мм',
          article: 'РИ-3006-26',
          price: 2599,
          options: [{ name: 'Размер', value: '26"' }],
        },
        { bytes: pictures.site },
      )
      expect(res.statusCode, res.body).toBe(201)
      const variantId = res.json().data.variantId as number
      const stored = (await variantsOf(box.id)).find((v) => v.id === variantId)!
      expect(stored.image).toMatch(/^uploads\/[0-9a-f]{16}\.40x30\.png$/)
      const list = await t.app.inject({ url: `/api/admin/products/${box.id}/variants`, headers: AUTH })
      expect(list.json().data.variants.find((v: { id: number }) => v.id === variantId).image).toBe(stored.image)
      expect(await page(`${box.urlFull}?v=${variantId}`)).toContain(hashOf(stored.image))
      expect(await feedPicture(box.id, variantId)).toContain(hashOf(stored.image))
    })

    it('replaces and removes the picture; refuses a path not uploaded, a file that is no picture and another field', async () => {
      const box = await productOf('Ящик для инструмента')
      const variant = (await variantsOf(box.id)).find((v) => v.title === '26", 660×300×260 мм')!
      const path = `${box.id}/variants/${variant.id}`
      const replaced = await write('PATCH', path, { price: 2499 }, { bytes: pictures.replaced })
      expect(replaced.statusCode, replaced.body).toBe(200)
      const now = (await variantsOf(box.id)).find((v) => v.id === variant.id)!
      expect(now).toMatchObject({ price: 249900, image: expect.stringMatching(/\.44x30\.png$/) })
      const shown = await page(`${box.urlFull}?v=${variant.id}`)
      expect(shown).toContain(hashOf(now.image))
      expect(shown).not.toContain(hashOf(variant.image))

      // The stored picture sent back with the rest of the form is no change.
      expect((await write('PATCH', path, { image: now.image, price: 2499 })).statusCode).toBe(200)
      for (const [data, file, status, errors] of [
        [{ image: 'uploads/0123456789abcdef.8x8.png' }, undefined, 400, { image: VARIANT_IMAGE_UPLOAD }],
        [{ image: 5 }, undefined, 400, { image: VARIANT_IMAGE_UPLOAD }],
        [
          { price: 1 },
          { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
          415,
          { image: expect.any(String) },
        ],
        [{ price: 1 }, { name: 'picture', bytes: pictures.blue }, 400, { picture: 'Здесь не может быть файла' }],
      ] as const) {
        const res = await write('PATCH', path, data, file)
        expect(res.statusCode, res.body).toBe(status)
        expect(res.json().errors).toEqual(errors)
      }
      expect((await variantsOf(box.id)).find((v) => v.id === variant.id)).toEqual(now)

      const removed = await write('PATCH', path, { image: null })
      expect(removed.statusCode, removed.body).toBe(200)
      expect((await variantsOf(box.id)).find((v) => v.id === variant.id)!.image).toBeNull()
      expect(await page(`${box.urlFull}?v=${variant.id}`)).not.toContain(hashOf(now.image))
    })

    it('gives a characteristic’s variant its offer’s first picture; a file 1C did not send is logged, not fatal', async () => {
      await send({
        'import_files/ab/blue.jpg': pictures.blue,
        'import.xml': CATALOGUE,
        'offers.xml': offersXml({
          priceTypes: PRICE_TYPES,
          offers: [
            rug('c1', 'Синий', ['import_files/ab/blue.jpg', 'import_files/ab/grey.jpg']),
            rug('c2', 'Серый', ['import_files/ab/missing.jpg']),
          ],
        }),
      })
      const product = await productOf('Ковёр Лоза')
      const [c1, c2] = await variantsOf(product.id)
      expect(c1).toMatchObject({
        externalId: 'c1',
        image: expect.stringMatching(/^uploads\/[0-9a-f]{16}\.64x48\.jpg$/),
      })
      expect(c2).toMatchObject({ externalId: 'c2', image: null })
      expect(await page(`${product.urlFull}?v=${c1.id}`)).toContain(hashOf(c1.image))
      expect(await feedPicture(product.id, c1.id)).toContain(hashOf(c1.image))
      const run = await t.app.db
        .selectFrom('exchangeRun')
        .select('report')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(JSON.parse(run.report).skipped).toEqual(
        expect.arrayContaining([
          { what: 'Картинка import_files/ab/missing.jpg', why: 'файл не получен от 1С' },
          { what: 'Картинка import_files/ab/grey.jpg', why: 'файл не получен от 1С' },
        ]),
      )
    })

    it('keeps 1C’s picture read-only while «Картинки» is on; switched off, the site’s picture stays, a new variant takes 1C’s', async () => {
      const product = await productOf('Ковёр Лоза')
      const [c1] = await variantsOf(product.id)
      const list = await t.app.inject({ url: `/api/admin/products/${product.id}/variants`, headers: AUTH })
      expect(list.json().data.variants[0].oneC).toEqual(['price', 'stock', 'images'])
      const refused = await write('PATCH', `${product.id}/variants/${c1.id}`, { price: 5000 }, { bytes: pictures.site })
      expect(refused.statusCode, refused.body).toBe(400)
      expect(refused.json().errors).toEqual({ image: ONE_C_VARIANT.image })
      expect((await variantsOf(product.id))[0]).toEqual(c1)

      await settings({ 'exchange.overwrite.images': 'false' })
      const own = await write('PATCH', `${product.id}/variants/${c1.id}`, { price: 4990 }, { bytes: pictures.site })
      expect(own.statusCode, own.body).toBe(200)
      const site = (await variantsOf(product.id))[0].image
      expect(site).toMatch(/\.40x30\.png$/)
      await send({
        'import_files/ab/grey.jpg': pictures.grey,
        'offers.xml': offersXml({
          priceTypes: PRICE_TYPES,
          offers: [
            rug('c1', 'Синий', ['import_files/ab/grey.jpg']),
            rug('c3', 'Бежевый', ['import_files/ab/grey.jpg']),
          ],
        }),
      })
      const after = await variantsOf(product.id)
      expect(after.find((v) => v.externalId === 'c1')!.image).toBe(site)
      const c3 = after.find((v) => v.externalId === 'c3')!
      expect(c3.image).toMatch(/\.72x48\.jpg$/)
      expect(await page(`${product.urlFull}?v=${c1.id}`)).toContain(hashOf(site))
      expect(await feedPicture(product.id, c1.id)).toContain(hashOf(site))

      // Switched on again, the next exchange gives it 1C's picture.
      await settings({ 'exchange.overwrite.images': 'true' })
      await send({
        'import_files/ab/grey.jpg': pictures.grey,
        'offers.xml': offersXml({
          priceTypes: PRICE_TYPES,
          offers: [rug('c1', 'Синий', ['import_files/ab/grey.jpg'])],
        }),
      })
      expect((await variantsOf(product.id)).find((v) => v.externalId === 'c1')!.image).toBe(c3.image)
    })
  })
}
