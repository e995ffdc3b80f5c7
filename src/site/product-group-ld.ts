// A product with variants as schema.org's ProductGroup (docs/decisions/043-variants.md): the product's
// own name, description, pictures and brand; `variesBy` the options its variants differ in that
// schema.org names (colour, size…); each variant a Product with its артикул as `sku`, its URL
// (`?v=<id>`) and an Offer when it has a price ("1299.90": money's decimal form, never a float).
import { rublesDecimal } from '../format/money'
import type { ProductPage } from './types'
import { absoluteMedia } from './json-ld'
import { discountPercent, SCHEMA_AVAILABILITY } from './catalogue'
import { variantHref } from './variant-query'

/** Option names (lower case) that schema.org names as properties a group varies by */
const VARIES_BY: Record<string, string> = {
  цвет: 'https://schema.org/color',
  color: 'https://schema.org/color',
  размер: 'https://schema.org/size',
  size: 'https://schema.org/size',
  материал: 'https://schema.org/material',
  рисунок: 'https://schema.org/pattern',
}

export function productGroupLd(page: ProductPage, publicUrl: string, mediaUrl: string) {
  const media = (image: string) => absoluteMedia(publicUrl, mediaUrl, image)
  const images = page.images.map((i) => i.image)
  const variesBy = [
    ...new Set(page.variants.flatMap((v) => v.options.flatMap((o) => VARIES_BY[o.name.trim().toLowerCase()] ?? []))),
  ]
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    name: page.title,
    productGroupID: String(page.id),
    url: `${publicUrl}${page.url}`,
    ...(page.description ? { description: page.description } : {}),
    ...(images.length > 0 ? { image: images.map(media) } : {}),
    ...(page.vendor ? { brand: { '@type': 'Brand', name: page.vendor } } : {}),
    ...(variesBy.length > 0 ? { variesBy } : {}),
    hasVariant: page.variants.map((v) => {
      const url = `${publicUrl}${variantHref(page.url, v.id)}`
      return {
        '@type': 'Product',
        name: `${page.title}, ${v.title}`,
        ...(v.article ? { sku: v.article } : {}),
        ...(v.image ? { image: media(v.image) } : {}),
        url,
        ...(v.options.length > 0
          ? {
              additionalProperty: v.options.map((o) => ({ '@type': 'PropertyValue', name: o.name, value: o.value })),
            }
          : {}),
        ...(v.price !== null
          ? {
              offers: {
                '@type': 'Offer',
                price: rublesDecimal(v.price),
                priceCurrency: 'RUB',
                availability: SCHEMA_AVAILABILITY[v.availability],
                url,
                ...(discountPercent(v.price, v.oldPrice) !== null
                  ? {
                      priceSpecification: {
                        '@type': 'UnitPriceSpecification',
                        priceType: 'https://schema.org/StrikethroughPrice',
                        price: rublesDecimal(v.oldPrice!),
                        priceCurrency: 'RUB',
                      },
                    }
                  : {}),
              },
            }
          : {}),
      }
    }),
  }
}
