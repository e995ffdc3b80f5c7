// JSON-LD builders and the one safe serialiser: '<' and line separators are escaped so
// record text such as `</script><script>` can never leave the script element.
import { rublesDecimal } from '../format/money'
import type { NavLink, ProductPage, SiteInfo } from './types'
import { telHref } from '../format/phone'
import { mediaSrc } from './url'
import { discountPercent, SCHEMA_AVAILABILITY } from './catalogue'

/** JSON for an inline <script>: valid JSON, inert inside HTML. */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** Absolute URL of a media path for crawlers and share previews. */
export function absoluteMedia(publicUrl: string, mediaUrl: string, image: string): string {
  const src = mediaSrc(mediaUrl, image)
  return /^https?:\/\//.test(src) ? src : `${publicUrl}${src}`
}

export function organizationLd(site: SiteInfo, publicUrl: string, mediaUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.title,
    url: `${publicUrl}${site.url}`,
    ...(site.logo ? { logo: absoluteMedia(publicUrl, mediaUrl, site.logo) } : {}),
    ...(site.tel ? { telephone: telHref(site.tel) } : {}),
    ...(site.description ? { description: site.description } : {}),
  }
}

/**
 * The page's Product (decision 025): every gallery image as an absolute URL, the brand, the
 * characteristics as PropertyValue, and an Offer only when there is a price (never `price: 0`); an
 * old price above it is a StrikethroughPrice.
 */
export function productLd(page: ProductPage, publicUrl: string, mediaUrl: string) {
  const images = page.images.length > 0 ? page.images.map((i) => i.image) : page.image ? [page.image] : []
  const strikethrough = discountPercent(page.price, page.oldPrice) !== null
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: page.title,
    ...(page.article ? { sku: page.article } : {}),
    ...(page.description ? { description: page.description } : {}),
    ...(images.length > 0 ? { image: images.map((image) => absoluteMedia(publicUrl, mediaUrl, image)) } : {}),
    ...(page.vendor ? { brand: { '@type': 'Brand', name: page.vendor } } : {}),
    ...(page.properties.length > 0
      ? {
          additionalProperty: page.properties.map((p) => ({
            '@type': 'PropertyValue',
            name: p.name,
            value: p.value,
            ...(p.unit ? { unitText: p.unit } : {}),
          })),
        }
      : {}),
    ...(page.price !== null
      ? {
          offers: {
            '@type': 'Offer',
            price: rublesDecimal(page.price),
            priceCurrency: 'RUB',
            availability: SCHEMA_AVAILABILITY[page.availability],
            url: `${publicUrl}${page.url}`,
            ...(strikethrough
              ? {
                  priceSpecification: {
                    '@type': 'UnitPriceSpecification',
                    priceType: 'https://schema.org/StrikethroughPrice',
                    price: rublesDecimal(page.oldPrice!),
                    priceCurrency: 'RUB',
                  },
                }
              : {}),
          },
        }
      : {}),
  }
}

export function breadcrumbLd(crumbs: NavLink[], publicUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.title,
      item: `${publicUrl}${crumb.url}`,
    })),
  }
}
