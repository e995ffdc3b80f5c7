// JSON-LD builders and the one safe serialiser: '<' and line separators are escaped so
// record text such as `</script><script>` can never leave the script element.
import type { NavLink, ProductPage, SiteInfo } from './types'
import { telHref } from '../format/phone'
import { mediaSrc } from './url'

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

export function productLd(page: ProductPage, publicUrl: string, mediaUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: page.title,
    ...(page.article ? { sku: page.article } : {}),
    ...(page.description ? { description: page.description } : {}),
    ...(page.image ? { image: absoluteMedia(publicUrl, mediaUrl, page.image) } : {}),
    ...(page.price !== null
      ? {
          offers: {
            '@type': 'Offer',
            price: page.price,
            priceCurrency: 'RUB',
            availability: 'https://schema.org/InStock',
            url: `${publicUrl}${page.url}`,
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
