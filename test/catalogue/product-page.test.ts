// The demo shop's product pages read as a crawler reads them (decision 025): the Product JSON-LD
// with the gallery as absolute URLs, the brand, the characteristics as PropertyValue with unitText,
// the availability, the old price as a StrikethroughPrice, and no offer at all without a price;
// and the page's own HTML: availability, the struck-through price with its «−N %», «Цена по
// запросу» with the lead button, the grouped characteristics in the owner's order. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const ORIGIN = 'https://shop.example.ru'

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]))
}

/** The page's text as a reader gets it: tags out, entities of the demo texts decoded. */
function text(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`product pages as a crawler reads them on ${dialect.name}`, () => {
    let t: TestApp
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    beforeAll(async () => {
      t = await dialect.build()
    })
    afterAll(() => t?.close())

    it('describes the demo product with its gallery, brand, characteristics, back order and old price', async () => {
      const res = await get('/structure/product')
      expect(res.statusCode).toBe(200)
      const product = jsonLd(res.body).find((x) => x['@type'] === 'Product')
      expect(product.image).toHaveLength(3)
      for (const url of product.image) expect(url).toMatch(new RegExp(`^${ORIGIN}/media/demo/`))
      expect(new Set(product.image).size).toBe(3)
      expect(product.brand).toEqual({ '@type': 'Brand', name: 'Мастер Про' })
      expect(product.additionalProperty).toContainEqual({
        '@type': 'PropertyValue',
        name: 'Крутящий момент',
        value: '60',
        unitText: 'Н·м',
      })
      // A row without a unit has no unitText.
      expect(product.additionalProperty).toContainEqual({
        '@type': 'PropertyValue',
        name: 'Двигатель',
        value: 'бесщёточный',
      })
      expect(product.offers).toEqual({
        '@type': 'Offer',
        price: '12990',
        priceCurrency: 'RUB',
        availability: 'https://schema.org/BackOrder',
        url: `${ORIGIN}/structure/product`,
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          priceType: 'https://schema.org/StrikethroughPrice',
          price: '15990',
          priceCurrency: 'RUB',
        },
      })
      // og:image is the main image (as a share-sized raster).
      const og = /<meta property="og:image" content="([^"]+)"/.exec(res.body)![1]
      expect(og).toBe(product.image[0].replace(`${ORIGIN}/media/`, `${ORIGIN}/og-image/`))

      const page = text(res.body)
      expect(page).toContain('Под заказ')
      expect(page).toContain('Бренд: Мастер Про')
      expect(res.body).toMatch(/<del class="price__old">.*15\s990/)
      expect(page).toContain('−19 %')
      // Grouped, in the owner's order: the characteristics the owner placed («Тип питания» 1, «Масса»
      // 4, «Цвет» 3: the demo's filters) after those in no place, a group's rows kept together.
      expect(page).toContain(
        'Характеристики Электрика Напряжение аккумулятора 18 В Ёмкость аккумулятора 4 А·ч Двигатель бесщёточный ' +
          'Тип питания аккумулятор Работа Крутящий момент 60 Н·м Частота вращения 0–1800 об/мин ' +
          'Габариты Комплектация 2 аккумулятора, зарядное устройство, кейс Масса 1,6 кг Корпус Цвет синий',
      )
      // Every gallery picture has its box: width and height, so nothing shifts while loading.
      for (const img of res.body.match(/<img [^>]*class="image[^"]*"[^>]*>/g) ?? []) {
        expect(img).toMatch(/width="\d+"/)
        expect(img).toMatch(/height="\d+"/)
      }
      expect(res.body).toContain('data-island="gallery"')
    })

    it('gives a product without a price no offer, and shows «Цена по запросу» with the lead button', async () => {
      const res = await get('/structure/garden/chainsaw')
      expect(res.statusCode).toBe(200)
      const product = jsonLd(res.body).find((x) => x['@type'] === 'Product')
      expect(product).not.toHaveProperty('offers')
      expect(JSON.stringify(product)).not.toMatch(/"price"/)
      expect(product.brand.name).toBe('Садовод')
      expect(text(res.body)).toContain('Цена по запросу')
      expect(res.body).toContain('Оставить заявку')
    })

    it('marks out-of-stock and in-stock offers, and shows availability and old prices on the cards', async () => {
      const saw = jsonLd((await get('/structure/power-tools/circular-saw')).body).find((x) => x['@type'] === 'Product')
      expect(saw.offers.availability).toBe('https://schema.org/OutOfStock')
      const grinder = jsonLd((await get('/structure/power-tools/angle-grinder')).body).find(
        (x) => x['@type'] === 'Product',
      )
      expect(grinder.offers.availability).toBe('https://schema.org/InStock')
      expect(grinder.offers.priceSpecification.price).toBe('6290')

      const section = text((await get('/structure/power-tools/')).body)
      expect(section).toContain('Нет в наличии')
      expect(section).toContain('Под заказ')
      expect(section).toMatch(/5 290 ₽ Старая цена: 6 290 ₽ −16 %/)
    })
  })
}
