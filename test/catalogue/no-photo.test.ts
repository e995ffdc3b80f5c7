// A product without a picture (issue 46, item 4), on SQLite and PostgreSQL: its card and its page
// show the designed placeholder (a pictogram and «Фото скоро появится», src/site/no-photo.ts), not
// an empty box; its share image is the placeholder's 1200×630 JPEG, not the logo; the Yandex feed
// gives it no picture. The demo shop has one: «Фен строительный 2000 Вт».
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord } from '../helpers/multipart'

const PUBLIC_URL = 'https://shop.example.ru'
const URL = '/structure/garden/bez-foto'
const DEMO_URL = '/structure/power-tools/heat-gun'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a product without a picture on ${dialect.name}`, () => {
    let t: TestApp
    let id: number
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, PUBLIC_URL, YANDEX_FEED: 'true', YANDEX_FEED_COMPANY: 'ООО «Тест»' })
      const res = await sendRecord(t.app, AUTH, 'POST', '/api/structure', {
        parentId: await recordIdAt(t.app.db, '/structure/garden/'),
        typeId: 'product',
        title: 'Грабли без фото',
        urlFull: URL,
        product: { article: 'БФ-1', price: 990 },
      })
      expect(res.statusCode, res.body).toBe(201)
      id = JSON.parse(res.body).data.id
    })
    afterAll(async () => {
      await t?.close()
    })

    const html = async (url: string) => decodeEntities((await t.app.inject({ url })).body)
    const cardOf = (section: string, url: string) => section.slice(section.indexOf(`href="${url}"`)).slice(0, 600)
    const ogImage = (page: string) => /<meta property="og:image" content="([^"]+)"/.exec(page)?.[1]

    it('shows the placeholder on its card and on its page', async () => {
      const section = await html('/structure/garden/?sort=name')
      expect(cardOf(section, URL)).toMatch(/class="image image--square image--empty"[^>]*>Фото скоро появится</)
      const page = await html(URL)
      expect(page).toMatch(/role="img" aria-label="Грабли без фото">Фото скоро появится</)
    })

    it('shares the placeholder image, not the logo, and the feed gives it no picture', async () => {
      const page = await html(URL)
      expect(ogImage(page)).toBe(`${PUBLIC_URL}/og-image/no-photo.jpg`)
      const image = await t.app.inject({ url: '/og-image/no-photo.jpg' })
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toBe('image/jpeg')
      expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 })

      const feed = (await t.app.inject({ url: '/feeds/yandex.xml' })).body
      const offer = feed.split('<offer ').find((o) => o.includes('<vendorCode>БФ-1</vendorCode>'))
      expect(offer).toContain(`<url>${PUBLIC_URL}${URL}</url>`)
      expect(offer).not.toContain('<picture>')
      // A product with a picture keeps its own share image.
      const drill = await html('/structure/product')
      expect(ogImage(drill)).toMatch(/\/og-image\/(uploads|demo)\//)
      expect(id).toBeGreaterThan(0)
    })

    it('is in the demo shop: a power tool without a photo, placeholder on its card, page and share image', async () => {
      const section = await html('/structure/power-tools/')
      expect(cardOf(section, DEMO_URL)).toMatch(/class="image image--square image--empty"[^>]*>Фото скоро появится</)
      const page = await html(DEMO_URL)
      expect(page).toMatch(/role="img" aria-label="Фен строительный 2000 Вт">Фото скоро появится</)
      expect(ogImage(page)).toBe(`${PUBLIC_URL}/og-image/no-photo.jpg`)
      // Its neighbours have their pictures.
      expect(cardOf(section, '/structure/power-tools/drill-impact')).toMatch(/<img [^>]*src="\/media\/demo\/drill-/)
    })
  })
}
