// The lines of a lead request, judged before anything is stored (docs/decisions/041-request-list.md):
// each names a public product once, and the sums stay exact. A refusal is a Russian message under
// `lines` and nothing is written. While the database is away the lines are taken as asked: the lead
// is journaled and its lines are copied from the catalogue when it is stored (a 2xx is never lost
// for want of a price; a product gone by then keeps its number, «Товар № …»).
import type { Db } from '../../data/db'
import { isDatabaseUnavailable } from '../../data/unavailable'
import type { RequestLine } from '../../../src/lead/request-list'
import {
  exactSums,
  productsNow,
  refusedLines,
  repeatedLines,
  variantOf,
  variantsNow,
  type RequestedLine,
} from '../store/lead-lines'

export const LINES_TEXTS = {
  repeated: 'Один товар указан в заявке дважды: оставьте одну строку',
  gone: (ids: readonly number[]) =>
    `${ids.length === 1 ? 'Этого товара' : 'Этих товаров'} больше нет в каталоге (№ ${ids.join(', ')}): уберите ${
      ids.length === 1 ? 'его' : 'их'
    } из заявки`,
  tooLarge: 'Сумма заявки слишком велика: уменьшите количество',
} as const

export type CheckedLines = { readonly lines: RequestedLine[] } | { readonly errors: Record<string, string> }

export async function checkLines(db: Db, asked: readonly RequestLine[]): Promise<CheckedLines> {
  if (asked.length === 0) return { lines: [] }
  if (repeatedLines(asked).length > 0) return { errors: { lines: LINES_TEXTS.repeated } }
  let products: Awaited<ReturnType<typeof productsNow>> | null = null
  try {
    products = await productsNow(
      db,
      asked.map((line) => line.productId),
    )
    const refused = refusedLines(asked, products)
    if (refused.length > 0) return { errors: { lines: LINES_TEXTS.gone(refused.map((i) => asked[i].productId)) } }
    const variants = await variantsNow(
      db,
      asked.flatMap((line) => line.variantId ?? []),
    )
    const priced = asked.map((line) => ({
      price: variantOf(line, variants)?.price ?? products!.get(line.productId)?.price ?? null,
      quantity: line.quantity,
    }))
    if (!exactSums(priced)) return { errors: { lines: LINES_TEXTS.tooLarge } }
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error
  }
  return {
    lines: asked.map((line) => {
      const title = products?.get(line.productId)?.title
      const variant = line.variantId ? { variantId: line.variantId } : {}
      return { productId: line.productId, ...variant, quantity: line.quantity, ...(title ? { title } : {}) }
    }),
  }
}
