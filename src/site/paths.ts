// The site's own paths, written once: the server's routes, the pages' links and the tests import
// them from here. Paths of records come from the database (their urlFull), never from this file.

/** Every JSON API route lives under this prefix. */
export const API_PREFIX = '/api'

const ADMIN = '/admin'

export const PATHS = Object.freeze({
  /** The plain lead form page (the dialog's fallback without JavaScript) */
  leadForm: '/zayavka',
  /** Where a no-JS lead form lands after it was sent */
  leadThanks: '/spasibo',
  /** POST: the public lead intake */
  leadEndpoint: `${API_PREFIX}/feedback`,
  /** GET ?path=: the consent text the lead form links to */
  leadConsent: `${API_PREFIX}/lead-consent`,
  /** POST: a visitor's cookie choice, logged (docs/decisions/027-personal-data.md) */
  cookieChoice: `${API_PREFIX}/cookie-choice`,
  /** POST: reports of what the Content-Security-Policy blocked */
  cspReport: `${API_PREFIX}/csp-report`,
  /** The catalogue search: GET ?q=…&page=… (noindex, not in the sitemap) */
  search: '/poisk',
  /** The owner's back office; every screen lives under it */
  admin: ADMIN,
  /** The back office's «Прайс-лист»: a price list in, the feeds out */
  adminPriceList: `${ADMIN}/price-list`,
  /** The back office's JSON API */
  adminApi: `${API_PREFIX}${ADMIN}`,
  /** Uploaded and demo images (and their variants) */
  media: '/media/',
  /** 1200×630 JPEG share previews of stored images: `/og-image/<stored path>` */
  ogImage: '/og-image/',
  /** 1000×1000 JPEG copies of stored images for the Yandex feed: `/feed-image/<stored path>` */
  feedImage: '/feed-image/',
  /** The YML feed for Yandex Direct and Товары (with YANDEX_FEED=true) */
  yandexFeed: '/feeds/yandex.xml',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
})

/** Whether a path is the back office's (its pages are never cached, indexed or listed). */
export function isAdminPath(pathname: string): boolean {
  return pathname === PATHS.admin || pathname.startsWith(`${PATHS.admin}/`)
}
