// 1C's characteristics as the product's variants (issue 46 item 3, docs/decisions/043-variants.md):
// the offers `<product Ид>#<characteristic Ид>` of one product become its variants, each with its
// price and old price (of the price types the owner chose), its stock as availability, its артикул
// its «ХарактеристикиТовара» as option rows and its first «Картинка» (stored as a product's pictures
// are, exchange-inputs.ts) as its picture. What an offer does not say (a prices-only or a rests-only
// file, no picture) stays as stored. The rows are written by the variant repository
// (products/variant-rows.ts) through the offers step (exchange-offers.ts), which leaves an existing
// variant's price, stock or picture as the site has it when the owner's switches say so (decision 044).
import { cleanText } from '../../../src/validation/plain-text'
import type { VariantInput } from '../products/variant-rows'
import type { CmlOffer } from './commerceml'
import type { ExchangeSettings } from './exchange-settings'

const line = (text: string | null | undefined, max: number) =>
  text === null || text === undefined ? null : cleanText(text, 'single-line', max) || null

/** How an offers step reads its offers: the price types the owner chose, the pictures stored for them. */
export interface OfferReading {
  readonly priceType: string | null
  readonly oldPriceType: string | null
  /** An offer's stored pictures (`uploads/…`) by its Ид (storeImages); null or absent: it named none */
  readonly images?: ReadonlyMap<string, readonly string[] | null>
}

/** The variants the characteristics' offers of one product make, in the file's order. */
export function variantInputs(
  offers: readonly CmlOffer[],
  settings: Pick<ExchangeSettings, 'zeroStock'>,
  { priceType, oldPriceType, images }: OfferReading,
): VariantInput[] {
  return offers.flatMap((o) => {
    const hash = o.id.indexOf('#')
    if (hash === -1) return []
    const externalId = o.id.slice(hash + 1)
    const options = (o.characteristics ?? []).flatMap((c) => {
      const [name, value] = [line(c.name, 200), line(c.value, 500)]
      return name && value ? [{ name, value }] : []
    })
    // The combination shown: its characteristics' values, else what 1C names it in brackets, else its
    // name; a file that says none of them (prices, rests) keeps the stored one.
    const named = line(o.name, 250)
    const title = options.map((c) => c.value).join(', ') || /\(([^()]+)\)\s*$/.exec(named ?? '')?.[1] || named
    const price = o.prices === null || priceType === null ? undefined : (o.prices.get(priceType) ?? null)
    const old = o.prices === null || oldPriceType === null ? undefined : (o.prices.get(oldPriceType) ?? null)
    // Its first picture the site could store; none stored (a file 1C did not send: in the log) keeps the stored one.
    const image = images?.get(o.id)?.[0]
    return [
      {
        externalId,
        ...(title ? { title: title.slice(0, 250) } : {}),
        ...(o.article ? { article: line(o.article, 100) } : {}),
        ...(price !== undefined ? { price } : {}),
        ...(old !== undefined ? { oldPrice: old } : {}),
        ...(o.quantity !== null ? { availability: o.quantity > 0 ? 'in_stock' : settings.zeroStock } : {}),
        ...(options.length > 0 ? { options } : {}),
        ...(image !== undefined ? { image } : {}),
      } satisfies VariantInput,
    ]
  })
}
