// The rules of a YML feed for Yandex Direct and Товары, as a checker the feed tests run on every
// feed they get: Yandex refuses a whole file for a missing required element, a misspelt or repeated
// one, a duplicate id, a category that does not exist, an old price not above the price, relative
// URLs, a picture not named as a JPEG or PNG file, or HTML outside CDATA (yandex.ru/support/direct/feeds/requirements-yml.html, the
// yandex-ecom-search README and docs). Returns every broken rule, as sentences; [] for a good feed.
import { XMLParser, XMLValidator } from 'fast-xml-parser'

type Node = Record<string, unknown> & { ':@'?: Record<string, string> }

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
const SHOP_ORDER = ['name', 'company', 'url', 'currencies', 'categories', 'offers']
const OFFER_ORDER = [
  'url',
  'price',
  'oldprice',
  'currencyId',
  'categoryId',
  'picture',
  'name',
  'vendor',
  'vendorCode',
  'description',
  'param',
]
const REPEATABLE = new Set(['picture', 'param'])
const OFFER_REQUIRED = ['url', 'price', 'currencyId', 'categoryId', 'name']
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const tagOf = (node: Node) => Object.keys(node).find((k) => k !== ':@')!
const childrenOf = (node: Node) => (node[tagOf(node)] as Node[]) ?? []
const elementsOf = (node: Node) => childrenOf(node).filter((n) => tagOf(n) !== '#text')
const textOf = (node: Node) =>
  childrenOf(node)
    .map((c) => String(c['#text'] ?? ''))
    .join('')
const attrsOf = (node: Node) => node[':@'] ?? {}

export interface ParsedOffer {
  readonly id: string
  readonly available: string | undefined
  /** A variant's offer: its product's id (decision 043) */
  readonly groupId?: string
  readonly tags: string[]
  readonly fields: Record<string, string[]>
  readonly params: { name: string; unit?: string; value: string }[]
}

export interface ParsedFeed {
  readonly date: string
  readonly shopTags: string[]
  readonly shop: Record<string, string>
  readonly currencies: string[]
  readonly categories: { id: string; parentId?: string; title: string }[]
  readonly offers: ParsedOffer[]
}

/** The feed as a real XML parser reads it (fast-xml-parser, order kept). */
export function parseYml(xml: string): ParsedFeed {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
  })
  const root = (parser.parse(xml) as Node[]).find((n) => tagOf(n) === 'yml_catalog')!
  const shops = elementsOf(root).filter((n) => tagOf(n) === 'shop')
  if (shops.length !== 1) throw new Error('not exactly one <shop>')
  const shop: Record<string, string> = {}
  const feed: ParsedFeed = {
    date: attrsOf(root).date ?? '',
    shopTags: elementsOf(shops[0]).map(tagOf),
    shop,
    currencies: [],
    categories: [],
    offers: [],
  }
  for (const child of elementsOf(shops[0])) {
    const tag = tagOf(child)
    if (tag === 'currencies') for (const c of elementsOf(child)) feed.currencies.push(attrsOf(c).id)
    else if (tag === 'categories') {
      for (const c of elementsOf(child)) {
        feed.categories.push({ id: attrsOf(c).id, parentId: attrsOf(c).parentId, title: textOf(c) })
      }
    } else if (tag === 'offers') {
      for (const o of elementsOf(child)) {
        const fields: Record<string, string[]> = {}
        const params: ParsedOffer['params'] = []
        for (const f of elementsOf(o)) {
          const name = tagOf(f)
          if (name === 'param') params.push({ name: attrsOf(f).name, unit: attrsOf(f).unit, value: textOf(f) })
          else (fields[name] ??= []).push(textOf(f))
        }
        feed.offers.push({
          id: attrsOf(o).id,
          available: attrsOf(o).available,
          groupId: attrsOf(o).group_id,
          tags: elementsOf(o).map(tagOf),
          fields,
          params,
        })
      }
    } else shop[tag] = textOf(child)
  }
  return feed
}

/** Every broken rule of the feed; `publicUrl` is the site's origin (offer and picture URLs start with it). */
export function ymlProblems(xml: string, publicUrl: string): string[] {
  const problems: string[] = []
  if (!xml.startsWith(DECLARATION)) problems.push('the declaration is not on the first byte')
  if (CONTROL.test(xml)) problems.push('the feed holds a control character')
  const valid = XMLValidator.validate(xml)
  if (valid !== true) return [...problems, `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`]
  let feed: ParsedFeed
  try {
    feed = parseYml(xml)
  } catch (error) {
    return [...problems, (error as Error).message]
  }
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?([+-]\d\d:\d\d|Z)$/.test(feed.date)) {
    problems.push('yml_catalog@date is not RFC 3339')
  }
  if (feed.shopTags.join() !== SHOP_ORDER.join()) {
    problems.push(`<shop> holds ${feed.shopTags.join(', ')}, not ${SHOP_ORDER.join(', ')}`)
  }
  if (!feed.shop.name || !feed.shop.company) problems.push('the shop has no name or company')
  if (!feed.shop.url?.startsWith(publicUrl)) problems.push('the shop url is not the site')
  if (!feed.currencies.some((id) => id === 'RUR' || id === 'RUB')) problems.push('no RUR currency')
  const categoryIds = new Set<string>()
  for (const c of feed.categories) {
    if (categoryIds.has(c.id)) problems.push(`category ${c.id} appears twice`)
    categoryIds.add(c.id)
    if (!c.title) problems.push(`category ${c.id} has no name`)
  }
  for (const c of feed.categories) {
    if (c.parentId !== undefined && !categoryIds.has(c.parentId)) {
      problems.push(`category ${c.id}: parent ${c.parentId} is not a category`)
    }
  }
  const offerIds = new Set<string>()
  for (const offer of feed.offers) problems.push(...offerProblems(offer, publicUrl, categoryIds, offerIds))
  return problems
}

function offerProblems(offer: ParsedOffer, publicUrl: string, categoryIds: Set<string>, offerIds: Set<string>) {
  const problems: string[] = []
  const at = `offer ${offer.id}`
  if (!/^[0-9a-zA-Z]{1,20}$/.test(offer.id ?? '')) problems.push(`${at}: id is not 1–20 digits or Latin letters`)
  if (offerIds.has(offer.id)) problems.push(`${at}: id appears twice`)
  offerIds.add(offer.id)
  if (offer.available !== undefined && !['true', 'false'].includes(offer.available)) {
    problems.push(`${at}: available is not true/false`)
  }
  const order = offer.tags.map((t) => OFFER_ORDER.indexOf(t))
  if (order.includes(-1)) problems.push(`${at}: unknown element ${offer.tags[order.indexOf(-1)]}`)
  if (order.some((n, j) => j > 0 && n < order[j - 1])) {
    problems.push(`${at}: elements out of order: ${offer.tags.join(', ')}`)
  }
  for (const [name, values] of Object.entries(offer.fields)) {
    if (values.length > 1 && !REPEATABLE.has(name)) problems.push(`${at}: <${name}> appears twice`)
  }
  for (const name of OFFER_REQUIRED) if (!offer.fields[name]?.[0]) problems.push(`${at}: no <${name}>`)
  const one = (name: string) => offer.fields[name]?.[0]
  if (!one('url')?.startsWith(`${publicUrl}/`)) problems.push(`${at}: url is not absolute on the site`)
  const price = Number(one('price'))
  if (!/^\d+(\.\d+)?$/.test(one('price') ?? '') || !(price > 0)) {
    problems.push(`${at}: price is not a positive number with a dot`)
  }
  if (one('oldprice') !== undefined && !(Number(one('oldprice')) > price)) {
    problems.push(`${at}: oldprice is not above price`)
  }
  if (!['RUR', 'RUB'].includes(one('currencyId') ?? '')) problems.push(`${at}: currencyId is not RUR`)
  if (!categoryIds.has(one('categoryId') ?? '')) problems.push(`${at}: categoryId is not a category`)
  const pictures = offer.fields.picture ?? []
  if (pictures.length > 10) problems.push(`${at}: more than 10 pictures`)
  for (const p of pictures) {
    if (!p.startsWith(`${publicUrl}/`) || p.length > 512)
      problems.push(`${at}: picture ${p} is not an absolute URL ≤ 512`)
    // Yandex names the picture formats it takes by the file: JPEG or PNG (issue #36).
    if (!/\.(jpe?g|png)$/i.test(new URL(p).pathname)) problems.push(`${at}: picture ${p} is not named .jpg or .png`)
  }
  if ((one('name') ?? '').length > 150) problems.push(`${at}: name longer than 150`)
  if ((one('description') ?? '').length > 3000) problems.push(`${at}: description longer than 3000`)
  for (const text of Object.values(offer.fields).flat()) {
    if (/<\/?[a-z][^>]*>/i.test(text)) problems.push(`${at}: HTML outside CDATA`)
  }
  for (const p of offer.params) if (!p.name || !p.value) problems.push(`${at}: a param without name or value`)
  return problems
}
