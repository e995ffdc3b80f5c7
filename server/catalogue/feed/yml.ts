// The YML feed's text (Yandex's "simplified offer" for Direct and Товары), written piece by piece:
// the declaration on the first byte, <shop> with name, company, url, currencies and categories
// before the offers, each offer's elements in Yandex's order. Every text is escaped and stripped of
// characters XML 1.0 does not allow; HTML is never written (descriptions are plain text).
import { rublesDecimal } from '../../../src/format/money'
import type { FeedCategory, FeedOffer, FeedVariant } from './feed-store'
import { variantHref } from '../../../src/site/variant-query'

export interface ShopInfo {
  readonly name: string
  readonly company: string
  /** PUBLIC_URL, without a trailing slash */
  readonly url: string
  /** An absolute URL of a stored image's JPEG copy for the feed */
  readonly pictureUrl: (source: string) => string
  /** The brand of an offer that has none: the shop's own goods (YANDEX_FEED_VENDOR), or null */
  readonly defaultVendor: string | null
}

/** The brand an offer is written with: its own, else the shop's default for its own goods. */
export function vendorOf(shop: Pick<ShopInfo, 'defaultVendor'>, offer: Pick<FeedOffer, 'vendor'>): string | null {
  return offer.vendor?.trim() ? offer.vendor : shop.defaultVendor
}

/** Yandex cuts a name after 150 characters and a description after 3000 */
const MAX_NAME = 150
const MAX_DESCRIPTION = 3000

// Control characters, lone surrogates and U+FFFE/U+FFFF: not allowed in XML 1.0.
/* eslint-disable no-control-regex */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/* eslint-enable no-control-regex */

// Whether a text needs any of the replacements below; most (URLs, prices, names) need none.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ud800-\udfff\ufffe\uffff]/

export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** Plain text of at most `max` characters, cut at a word, on one line per paragraph. */
function plain(text: string, max: number): string {
  const flat = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[ \t\r]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`
}

const element = (name: string, text: string) => `<${name}>${xmlText(text)}</${name}>`

/** RFC 3339 with the offset, as Market asks: 2026-11-25T21:30:00+00:00 */
export function ymlDate(at: Date): string {
  return `${at.toISOString().slice(0, 19)}+00:00`
}

export function ymlHead(shop: ShopInfo, categories: readonly FeedCategory[], at: Date): string {
  const ids = new Set(categories.map((c) => c.id))
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<yml_catalog date="${ymlDate(at)}">`,
    '<shop>',
    element('name', shop.name),
    element('company', shop.company),
    element('url', `${shop.url}/`),
    '<currencies><currency id="RUR" rate="1"/></currencies>',
    '<categories>',
    ...categories.map((c) => {
      const parent = c.parentId !== null && ids.has(c.parentId) ? ` parentId="${c.parentId}"` : ''
      return `<category id="${c.id}"${parent}>${xmlText(c.title)}</category>`
    }),
    '</categories>',
    '<offers>',
  ]
  return `${lines.join('\n')}\n`
}

export function ymlOffer(shop: ShopInfo, offer: FeedOffer): string {
  // A product with variants: each variant its own offer, grouped by the product's id (decision 043).
  if (offer.variants.length > 0)
    return offer.variants.map((v) => ymlOne(shop, variantOffer(offer, v), offer.id)).join('')
  return ymlOne(shop, offer, null)
}

/** A variant as an offer: its id `<product>v<variant>` (letters and digits, as YML asks), its URL `?v=`. */
function variantOffer(offer: FeedOffer, v: FeedVariant): FeedOffer & { offerId: string } {
  return {
    ...offer,
    offerId: `${offer.id}v${v.id}`,
    title: `${offer.title}, ${v.title}`,
    urlFull: variantHref(offer.urlFull, v.id),
    price: v.price,
    oldPrice: v.oldPrice,
    availability: v.availability,
    article: v.article ?? offer.article,
    pictures: v.image ? [v.image, ...offer.pictures.filter((p) => p !== v.image)] : offer.pictures,
    params: [...offer.params, ...v.params],
  }
}

function ymlOne(shop: ShopInfo, offer: FeedOffer & { offerId?: string }, groupId: number | null): string {
  const group = groupId === null ? '' : ` group_id="${groupId}"`
  const parts = [
    `<offer id="${offer.offerId ?? offer.id}"${group} available="${offer.availability === 'in_stock' ? 'true' : 'false'}">`,
    element('url', `${shop.url}${encodeURI(offer.urlFull)}`),
    element('price', rublesDecimal(offer.price)),
  ]
  if (offer.oldPrice !== null && offer.oldPrice > offer.price)
    parts.push(element('oldprice', rublesDecimal(offer.oldPrice)))
  parts.push(element('currencyId', 'RUR'), element('categoryId', String(offer.parentId)))
  for (const picture of offer.pictures) parts.push(element('picture', shop.pictureUrl(picture)))
  parts.push(element('name', plain(offer.title, MAX_NAME)))
  const vendor = vendorOf(shop, offer)
  if (vendor) parts.push(element('vendor', vendor))
  if (offer.article) parts.push(element('vendorCode', offer.article))
  const description = offer.description ? plain(offer.description, MAX_DESCRIPTION) : ''
  if (description) parts.push(element('description', description))
  for (const param of offer.params) {
    const unit = param.unit ? ` unit="${xmlText(param.unit)}"` : ''
    parts.push(`<param name="${xmlText(param.name)}"${unit}>${xmlText(param.value)}</param>`)
  }
  parts.push('</offer>')
  return `${parts.join('')}\n`
}

export const YML_TAIL = '</offers>\n</shop>\n</yml_catalog>\n'
