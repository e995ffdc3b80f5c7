// The per-page head tags beyond title and description, computed once for both the server
// render (+Head) and the head update after a client navigation.
import { breadcrumbLd, organizationLd, productLd } from './json-ld'
import { productGroupLd } from './product-group-ld'
import type { PageData, PublicSettings, SiteInfo } from './types'
import { PATHS } from './paths'

/** The share preview of a media image (PATHS.ogImage) is always a 1200×630 JPEG (VK, Telegram, WhatsApp). */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const

export interface HeadTags {
  canonical: string | null
  ogUrl: string | null
  ogType: string
  ogImage: string | null
  siteName: string | null
  robots: string | null
  jsonLd: object[]
}

export function pageHeadTags(
  page: PageData,
  site: SiteInfo | null | undefined,
  settings: PublicSettings | undefined,
): HeadTags {
  const publicUrl = settings?.publicUrl ?? ''
  const mediaUrl = settings?.mediaUrl ?? ''
  const url = `${publicUrl}${page.meta.canonicalPath}`
  const image = page.meta.image ?? site?.logo ?? null
  const jsonLd: object[] = []
  if (page.typeId === 'index' && site) jsonLd.push(organizationLd(site, publicUrl, mediaUrl))
  if (page.typeId === 'product') {
    // A product with variants is a ProductGroup of them (decision 043).
    jsonLd.push(
      page.variants.length > 0 ? productGroupLd(page, publicUrl, mediaUrl) : productLd(page, publicUrl, mediaUrl),
    )
  }
  if ((page.typeId === 'product' || page.typeId === 'section') && page.breadcrumbs.length > 1) {
    jsonLd.push(breadcrumbLd(page.breadcrumbs, publicUrl))
  }
  jsonLd.push(...page.meta.jsonLd)
  return {
    canonical: url,
    ogUrl: url,
    ogType: page.typeId === 'product' ? 'product' : 'website',
    // A raster of the size every messenger shows, made from the record's image (or the logo).
    // A product without a picture shares the designed placeholder, not the logo (src/site/no-photo.ts).
    ogImage:
      page.typeId === 'product' && !page.meta.image
        ? `${publicUrl}${PATHS.noPhotoImage}`
        : image
          ? `${publicUrl}${PATHS.ogImage}${image}`
          : null,
    siteName: site?.title ?? null,
    robots: page.meta.robots,
    jsonLd,
  }
}

/**
 * The page's title and description settings, as its `+data` gives them to `useConfig()`: one
 * function for Vike's rendering and the server's direct one (docs/decisions/037-one-document.md).
 */
export function pageSettings(page: PageData): { title: string; description?: string } {
  return { title: page.meta.title, ...(page.meta.description ? { description: page.meta.description } : {}) }
}
