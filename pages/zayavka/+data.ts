// https://vike.dev/data — server-only: when the form was shown and its idempotency key, made on
// the server so the no-JS form carries them and the hydrated form keeps the same values; and with
// ?tovar=N (a product page's «Оставить заявку» without JavaScript) the product the lead asks for.
import type { PageContextServer } from 'vike/types'
import { validProductId } from '../../src/lead/request-list'

export type Data = {
  startedAt: number
  idempotencyKey: string
  /** The public product of ?tovar=N, sent as one line of quantity 1 */
  product: { id: number; title: string } | null
}

async function productOf(pageContext: PageContextServer): Promise<Data['product']> {
  const id = validProductId(pageContext.urlParsed.search.tovar)
  if (id === null || !pageContext.requestList) return null
  const line = (await pageContext.requestList.view([{ productId: id, quantity: 1 }])).lines[0]
  return line ? { id: line.productId, title: line.title } : null
}

export async function data(pageContext: PageContextServer): Promise<Data> {
  const posted = pageContext.leadFormState
  return {
    startedAt: posted?.startedAt ?? Date.now(),
    idempotencyKey: posted?.idempotencyKey ?? crypto.randomUUID(),
    product: await productOf(pageContext),
  }
}
