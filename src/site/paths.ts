// The site's own paths, written once: the server's routes, the pages' links and the tests import
// them from here. Paths of records come from the database (their urlFull), never from this file.
// test/architecture-paths.test.ts fails when another source file writes one of these out.

/** Every JSON API route lives under this prefix. */
export const API_PREFIX = '/api'

const ADMIN = '/admin'
const ADMIN_API = `${API_PREFIX}/admin`

/** An id in a path: a number for a link, `':id'` for the server's route pattern. */
type Id = number | string

export const PATHS = Object.freeze({
  /** The plain lead form page (the dialog's fallback without JavaScript) */
  leadForm: '/zayavka',
  /** The visitor's request list: GET the page, POST a change (docs/decisions/041-request-list.md) */
  requestList: '/moya-zayavka',
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
  /** The lead outbox for the owner's tools (admin token): GET lists, POST …/retry queues again */
  deliveries: `${API_PREFIX}/deliveries`,
  deliveriesRetry: `${API_PREFIX}/deliveries/retry`,
  /** POST: many structure records in one transaction (`npm run content -- import`) */
  batchStructure: `${API_PREFIX}/batch/structure`,
  /** The catalogue search: GET ?q=…&page=… (noindex, not in the sitemap) */
  search: '/poisk',
  /** The owner's back office; every screen lives under it (ADMIN_PATHS) */
  admin: ADMIN,
  /** The back office's JSON API (ADMIN_API_PATHS) */
  adminApi: ADMIN_API,
  /** Uploaded and demo images (and their variants) */
  media: '/media/',
  /** 1200×630 JPEG share previews of stored images: `/og-image/<stored path>` */
  ogImage: '/og-image/',
  /** The share image of a product without a picture (src/site/no-photo.ts) */
  noPhotoImage: '/og-image/no-photo.jpg',
  /** 1000×1000 JPEG copies of stored images for the Yandex feed: `/feed-image/<stored path>.jpg` (feedImagePath) */
  feedImage: '/feed-image/',
  /** 1C's «Обмен с сайтом» (CommerceML; docs/decisions/032-1c-exchange.md) */
  exchange: '/1c/exchange',
  /** The YML feed for Yandex Direct and Товары (with YANDEX_FEED=true) */
  yandexFeed: '/feeds/yandex.xml',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  /** The public pages' speculation rules, named by their `Speculation-Rules` header */
  speculationRules: '/speculation-rules.json',
})

/**
 * The Yandex feed's picture of a stored image: its name with `.jpg` after it, as the file it serves
 * (`/feed-image/demo/drill-1a2b.svg.jpg`). Yandex's rules name picture formats by the file.
 */
export function feedImagePath(source: string): string {
  return `${PATHS.feedImage}${encodeURI(source)}.jpg`
}

/** The back office's screens (one Vike page answers them all: pages/admin/+route.ts). */
export const ADMIN_PATHS = Object.freeze({
  leads: ADMIN,
  /** The inbox opened at one lead (the link in the owner's message) */
  lead: (id: Id) => `${ADMIN}?lead=${id}`,
  content: `${ADMIN}/content`,
  record: (id: Id) => `${ADMIN}/content/${id}`,
  /** A new record's form, under a parent (`parentId`) or a new site (`typeId=index`) */
  newRecord: (query: { parentId: Id } | { typeId: string }) =>
    `${ADMIN}/content/new?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
  privacy: `${ADMIN}/privacy`,
  /** «Прайс-лист»: a price list in, the feeds out */
  priceList: `${ADMIN}/price-list`,
  /** «Товары»: every product as a table row, the filters in the query */
  products: `${ADMIN}/products`,
  /** «Обмен с 1С»: the exchange's address, its settings and its log */
  exchange: `${ADMIN}/exchange`,
  /** «Характеристики»: the catalogue's characteristics, their names, units and filters */
  characteristics: `${ADMIN}/characteristics`,
  /** «Настройки»: delivery, the site's address, the feed, Metrika and 1C's credentials */
  settings: `${ADMIN}/settings`,
  /** «Сменить пароль» */
  password: `${ADMIN}/password`,
  /** The owner chooses the first password here, with the one-time link printed at start */
  setup: `${ADMIN}/setup`,
  setupLink: (token: string) => `${ADMIN}/setup?${new URLSearchParams({ token })}`,
})

/** The back office's JSON API: the browser calls these, the server's routes are declared with them. */
export const ADMIN_API_PATHS = Object.freeze({
  session: `${ADMIN_API}/session`,
  /** POST the first password with the one-time link's token (docs/decisions/038-first-sign-in.md) */
  setup: `${ADMIN_API}/setup`,
  /** PUT a new password, with the current one */
  password: `${ADMIN_API}/password`,
  /** The 1C exchange: GET its address, settings and last runs; PUT its settings */
  exchange: `${ADMIN_API}/exchange`,
  /** GET the characteristics; PUT `/{id}` the owner's choices for one */
  characteristics: `${ADMIN_API}/characteristics`,
  characteristic: (id: Id) => `${ADMIN_API}/characteristics/${id}`,
  leads: `${ADMIN_API}/leads`,
  leadsCsv: `${ADMIN_API}/leads.csv`,
  latestLead: `${ADMIN_API}/leads/latest`,
  deadLetters: `${ADMIN_API}/leads/dead-letters`,
  lead: (id: Id) => `${ADMIN_API}/leads/${id}`,
  resendLead: (id: Id) => `${ADMIN_API}/leads/${id}/resend`,
  children: `${ADMIN_API}/content/children`,
  moveRecord: (id: Id) => `${ADMIN_API}/content/${id}/move`,
  orderRecord: (id: Id) => `${ADMIN_API}/content/${id}/order`,
  search: `${ADMIN_API}/search`,
  privacy: `${ADMIN_API}/privacy`,
  privacyOperator: `${ADMIN_API}/privacy/operator`,
  privacyAudit: `${ADMIN_API}/privacy/audit`,
  cookieChoicesCsv: `${ADMIN_API}/privacy/cookie-choices.csv`,
  subject: `${ADMIN_API}/privacy/subject`,
  subjectFile: `${ADMIN_API}/privacy/subject.json`,
  eraseSubject: `${ADMIN_API}/privacy/subject/erase`,
  priceListPreview: `${ADMIN_API}/price-list/preview`,
  priceListApply: `${ADMIN_API}/price-list/apply`,
  /** The Yandex feed's URL and IndexNow's state («Выгрузки») */
  feeds: `${ADMIN_API}/feeds`,
  /** «Скачать прайс-лист»: the catalogue, or the «Товары» filter in the query, as the import reads it */
  priceListXlsx: `${ADMIN_API}/price-list.xlsx`,
  priceListCsv: `${ADMIN_API}/price-list.csv`,
  /** «Товары»: GET a page (filters, sort, keyset `after`) */
  products: `${ADMIN_API}/products`,
  /** GET the ids a filter matches (the actions' «все по фильтру») */
  productIds: `${ADMIN_API}/products/ids`,
  /** GET the sections, for the filter and «Перенести» */
  productSections: `${ADMIN_API}/products/sections`,
  /** POST a batch of an action on products */
  productActions: `${ADMIN_API}/products/actions`,
  /** GET the catalogue's audit log */
  productAudit: `${ADMIN_API}/products/audit`,
  /** PATCH a product's price, old price or availability in place */
  product: (id: Id) => `${ADMIN_API}/products/${id}`,
  /** GET a product's variants with their options (the editor's «Варианты»), POST a new one */
  productVariants: (id: Id) => `${ADMIN_API}/products/${id}/variants`,
  /** PATCH a variant (its price, old price or availability in place; in the editor also its title, артикул, options), DELETE it */
  productVariant: (id: Id, variantId: Id) => `${ADMIN_API}/products/${id}/variants/${variantId}`,
  /** PUT the order of a product's variants */
  productVariantOrder: (id: Id) => `${ADMIN_API}/products/${id}/variant-order`,
  /** GET whether a product comes from 1C and the fields the exchange overwrites in it */
  productOneC: (id: Id) => `${ADMIN_API}/products/${id}/one-c`,
  /** GET how many demo products are left; DELETE «Убрать демо-магазин» */
  demoShop: `${ADMIN_API}/demo-shop`,
  /** «Настройки»: GET the view, PUT changes (docs/decisions/039-settings.md) */
  settings: `${ADMIN_API}/settings`,
  /** POST a group's check: a test e-mail, a Telegram message, a signed webhook call, a fetch */
  settingsCheck: (check: string) => `${ADMIN_API}/settings/check/${check}`,
  /** POST: a new webhook secret, shown once */
  settingsWebhookSecret: `${ADMIN_API}/settings/webhook-secret`,
  /** POST: a new 1C password, shown once */
  settingsExchangePassword: `${ADMIN_API}/settings/exchange-password`,
  /** POST: the chats that wrote to the bot (getUpdates) */
  settingsTelegramChats: `${ADMIN_API}/settings/telegram-chats`,
})

/** Whether a path is the back office's (its pages are never cached, indexed or listed). */
export function isAdminPath(pathname: string): boolean {
  return pathname === ADMIN || pathname.startsWith(`${ADMIN}/`)
}
