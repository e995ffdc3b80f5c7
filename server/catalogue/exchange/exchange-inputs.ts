// What the 1C exchange's import makes of a parsed file before a step writes it
// (docs/decisions/032-1c-exchange.md): the import's context and state, the pictures a batch names
// stored through the media store (by content: storing twice is harmless), the goods as the product
// writer takes them (characteristics resolved through the classifier's Справочник), and the offers
// of each product (the lowest price of its characteristics, in stock if any of them is). 1C's texts
// are cleaned by the editor's rule (cleanText: no control, NEL, line separator or bidi characters,
// within the model's lengths), so a product that came from 1C is saved in the editor unchanged.
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../data/db'
import { HttpError } from '../../http/http-error'
import { checkImage, checkImageSize } from '../../media/image-store'
import type { MediaStorage } from '../../media/storage/media-storage'
import { cleanText } from '../../../src/validation/plain-text'
import type { WriteDoor } from '../write-door'
import type { CmlOffer, CmlProduct } from './commerceml'
import { itemName } from './commerceml-checks'
import { checkedName, storedFile } from './exchange-files'
import type { ExchangeSettings } from './exchange-settings'
import type { OfferInput } from './exchange-offers'
import { variantInputs, type OfferReading } from './exchange-variants'
import { rublesNumber } from '../../../src/format/money'
import { emptyTally, type Tally } from './exchange-records'
import type { ProductInput } from './exchange-products'
import type { StagedFile } from './exchange-staging'
import type { OneCField } from '../../../src/catalogue/one-c-fields'

export type Step = 'start' | 'groups' | 'products' | 'withdraw' | 'offers' | 'done'

export interface ImportContext {
  readonly db: Db
  readonly door: WriteDoor
  readonly storage: MediaStorage
  readonly log: FastifyBaseLogger
  readonly now: () => Date
  /** Milliseconds one call works before it answers `progress` */
  readonly budgetMs: number
  /** The fields 1C overwrites in a product it did not create («Настройки», decision 044) */
  readonly overwrite: readonly OneCField[]
}

export type ImportAnswer = { readonly status: 'progress' | 'success' | 'failure'; readonly message: string }

export interface ImportState {
  unpacked: boolean
  /** Each file: its step, the position of its next item, and what staging found (exchange-staging.ts) */
  files: Record<string, { step: Step; pos: number; staged?: StagedFile }>
  /** The classifier's properties: Ид → name and Справочник */
  properties: Record<string, { name: string; values: Record<string, string> }>
  /** 1C's price types seen so far: Ид → name */
  priceTypes: Record<string, string>
  /** A catalogue file said it is the whole catalogue */
  fullSync: boolean
  /** Groups nested past the depth the catalogue takes → the group whose section takes their goods */
  groupAlias: Record<string, string>
}

/** An item skipped; `refused`: because of what 1C sent (the run then fails, naming it), not as usual */
export interface Skipped {
  what: string
  why: string
  refused?: true
}

export interface RunReport {
  files: string[]
  tally: Tally
  /** What was skipped and why (the first SKIPPED_KEPT) */
  skipped: Skipped[]
  skippedCount: number
  /** Of them, what 1C sent that the site refused: the first few and the count (the run fails) */
  refused?: { what: string; why: string }[]
  refusedCount?: number
  /** Offers of products' characteristics (the first kept; their count is the tally's `variants`) */
  variants?: VariantOffer[]
}

/** A characteristic's offer as the log lists it: its Ид, name, price (rubles, two decimals at most) and stock. */
export interface VariantOffer {
  offer: string
  name: string | null
  price: number | null
  quantity: number | null
}

export function isCatalogueFile(name: string): boolean {
  const base = name.split('/').pop()!.toLowerCase()
  return /^(import|groups|properties|goods)[\w-]*\.xml$/.test(base)
}

/**
 * Stores the pictures a batch of goods (or of characteristics' offers) names; returns each one's
 * stored images by its Ид, null for one that names none. A file 1C did not send, or one the site
 * does not take, is skipped with a line in the log.
 */
export async function storeImages(
  ctx: ImportContext,
  sessionId: string,
  items: readonly Pick<CmlOffer | CmlProduct, 'id' | 'pictures'>[],
  skipped: RunReport['skipped'],
): Promise<Map<string, string[] | null>> {
  const pictures = [...new Set(items.flatMap((item) => item.pictures ?? []))]
  const results: { stored: string | null; why?: string }[] = new Array(pictures.length)
  // A few at a time: each is a read of the file's parts, a look at its header and a write, mostly
  // waiting on the database, the disk or the image library's threads (one at a time: 8 ms each).
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < pictures.length) {
      const i = next++
      try {
        results[i] = await storeImage(ctx, sessionId, pictures[i])
      } catch (error) {
        // The others stop at their next picture; the step fails as with one at a time.
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(IMAGES_AT_ONCE, pictures.length) }, worker))
  const done = new Map<string, string | null>()
  pictures.forEach((picture, i) => {
    const { stored, why } = results[i]
    if (why !== undefined) skipped.push({ what: `Картинка ${picture}`, why })
    done.set(picture, stored)
  })
  const out = new Map<string, string[] | null>()
  for (const item of items) {
    if (!item.pictures || item.pictures.length === 0) out.set(item.id, null)
    else
      out.set(
        item.id,
        item.pictures.flatMap((picture) => done.get(picture) ?? []),
      )
  }
  return out
}

/** Pictures stored at once by a step */
const IMAGES_AT_ONCE = 4

/** One picture of the session's files stored (once by content); why not, when it cannot be. */
async function storeImage(
  ctx: ImportContext,
  sessionId: string,
  picture: string,
): Promise<{ stored: string | null; why?: string }> {
  try {
    const file = await storedFile(ctx.db, sessionId, checkedName(picture))
    if (file === null) return { stored: null, why: 'файл не получен от 1С' }
    // A picture past the limit is refused unread: 1C may send a file of up to 256 MB.
    checkImageSize(file.size)
    const bytes = await file.whole()
    let known = false
    const image = await checkImage(bytes, undefined, async (name) => {
      known = (await ctx.storage.size(name)) !== null
      return known
    })
    if (!known) await ctx.storage.write(image.relativePath, image.bytes)
    return { stored: image.relativePath }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    return { stored: null, why: error.message }
  }
}

export function productInputs(
  products: readonly CmlProduct[],
  state: ImportState,
  images: Map<string, string[] | null>,
): ProductInput[] {
  const line = (text: string | null, max: number) =>
    text === null ? null : cleanText(text, 'single-line', max) || null
  return products.map((p) => ({
    id: p.id,
    title: line(p.name, 250) ?? line(p.article, 250) ?? line(p.id, 250) ?? 'Товар',
    article: line(p.article, 100),
    description: p.description === null ? null : cleanText(p.description, 'multi-line', 20_000) || null,
    vendor: line(p.vendor, 200),
    group: p.groups.length > 0 ? (state.groupAlias[p.groups[0]] ?? p.groups[0]) : null,
    images: images.get(p.id) ?? null,
    properties: p.properties.flatMap((v) => {
      const property = state.properties[v.id]
      if (!property) return []
      const value = property.values[v.value] ?? v.value
      // A Справочник property left empty in 1C sends the all-zero Ид: no value.
      if (!value || /^0{8}-0{4}-0{4}-0{4}-0{12}$/.test(value)) return []
      const name = line(property.name, 200)
      const text = line(value, 500)
      return name && text ? [{ name, value: text }] : []
    }),
    deleted: p.deleted,
  }))
}

export function priceTypeId(wanted: string, known: Record<string, string>): string | null {
  if (!wanted) return Object.keys(known)[0] ?? null
  const lower = wanted.trim().toLowerCase()
  return Object.entries(known).find(([id, name]) => id === wanted || name.trim().toLowerCase() === lower)?.[0] ?? null
}

/** Offers per product: the lowest price of its characteristics' offers, in stock if any of them is. */
export function offerInputs(
  offers: readonly CmlOffer[],
  settings: ExchangeSettings,
  reading: OfferReading,
  tally: Tally,
  variants: VariantOffer[] = [],
  refused: Skipped[] = [],
): OfferInput[] {
  const { priceType, oldPriceType } = reading
  const byProduct = new Map<string, CmlOffer[]>()
  for (const offer of offers) {
    // A value the site does not take, of a price it reads or of the stock: the offer is skipped whole.
    const bad = offer.refused.find(
      (r) => r.priceType === null || r.priceType === priceType || r.priceType === oldPriceType,
    )
    if (bad) {
      refused.push({ what: itemName('Предложение', offer.id, offer.name), why: bad.why, refused: true })
      continue
    }
    const productId = offer.id.split('#')[0]
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), offer])
  }
  const out: OfferInput[] = []
  for (const [productId, list] of byProduct) {
    if (list.some((o) => o.id.includes('#'))) {
      tally.variants += list.length
      for (const o of list) {
        const price = priceType === null ? undefined : o.prices?.get(priceType)
        variants.push({
          offer: o.id,
          name: o.name,
          price: price === undefined ? null : rublesNumber(price),
          quantity: o.quantity,
        })
      }
    }
    const input: { -readonly [K in keyof OfferInput]: OfferInput[K] } = { productId }
    if (list.some((o) => o.id.includes('#'))) input.variants = variantInputs(list, settings, reading)
    const withPrices = list.filter((o) => o.prices !== null)
    if (withPrices.length > 0 && priceType !== null) {
      const prices = withPrices.flatMap((o) => o.prices!.get(priceType) ?? [])
      input.price = prices.length > 0 ? Math.min(...prices) : null
      if (oldPriceType !== null) {
        const cheapest = withPrices.find((o) => o.prices!.get(priceType) === Math.min(...prices))
        const old = cheapest?.prices!.get(oldPriceType)
        input.oldPrice = old !== undefined && input.price !== null && old > input.price ? old : null
      }
    }
    const quantities = list.flatMap((o) => (o.quantity === null ? [] : [o.quantity]))
    if (quantities.length > 0) input.availability = quantities.some((q) => q > 0) ? 'in_stock' : settings.zeroStock
    out.push(input)
  }
  return out
}

/** One product's offers of a staged file (its characteristics'), as a step writes them */
export interface ProductOffers {
  readonly productId: string
  readonly name: string | null
  /** undefined: every offer of it was refused */
  readonly input: OfferInput | undefined
  readonly variants: number
  readonly variantOffers: VariantOffer[]
  readonly refused: Skipped[]
}

/** Each staged product's offers made one input (or refused whole): a position per product either way. */
export function productOffers(
  staged: readonly (readonly CmlOffer[])[],
  input: (
    offers: readonly CmlOffer[],
    tally: Tally,
    variants: VariantOffer[],
    refused: Skipped[],
  ) => OfferInput | undefined,
): ProductOffers[] {
  return staged.map((offers) => {
    const tally = emptyTally()
    const variantOffers: VariantOffer[] = []
    const refused: Skipped[] = []
    const made = input(offers, tally, variantOffers, refused)
    const productId = offers[0].id.split('#')[0]
    return { productId, name: offers[0].name, input: made, variants: tally.variants, variantOffers, refused }
  })
}

/** The offers of products the site does not have, named as 1C names them, for the exchange's log. */
export function unknownOffers(part: readonly ProductOffers[], unknown: readonly string[]): Skipped[] {
  const names = new Map(part.map((p) => [p.productId, p.name]))
  return unknown.map((id) => ({
    what: itemName('Предложение', id, names.get(id) ?? null),
    why: 'товара с этим Ид нет на сайте',
  }))
}
