// The request list page's data (docs/decisions/041-request-list.md): the cookie's lines with the
// catalogue's title, артикул and price now. A line whose product is no longer public is left out
// (and counted), so the page, and the lead it sends, hold public products only. Nothing here is
// kept: the page is made anew for each visitor and never enters the page cache.
import fp from 'fastify-plugin'
import type { Db } from '../../data/db'
import type { RequestList } from '../../../src/lead/request-list'
import type { RequestListSource, RequestListView } from '../../../src/lead/request-list-view'
import { productsNow, totalOf, variantOf, variantsNow } from '../store/lead-lines'
import { variantHref } from '../../../src/site/variant-query'

declare module 'fastify' {
  interface FastifyInstance {
    requestList: RequestListSource
  }
}

export function createRequestListSource(db: Db): RequestListSource {
  return {
    async view(list: RequestList): Promise<RequestListView> {
      if (list.length === 0) return { lines: [], total: null, gone: 0 }
      const [products, variants] = await Promise.all([
        productsNow(
          db,
          list.map((line) => line.productId),
        ),
        variantsNow(
          db,
          list.flatMap((line) => line.variantId ?? []),
        ),
      ])
      const lines = list.flatMap((line) => {
        const product = products.get(line.productId)
        if (!product?.shown) return []
        // A variant no longer there: the line is gone, as a product's would be (decision 043).
        const variant = variantOf(line, variants)
        if (line.variantId && !variant) return []
        const price = variant ? variant.price : product.price
        return [
          {
            productId: line.productId,
            ...(variant ? { variantId: line.variantId } : {}),
            title: variant ? `${product.title}, ${variant.title}` : product.title,
            url: variant ? variantHref(product.urlFull, line.variantId!) : product.urlFull,
            article: variant?.article ?? product.article,
            price,
            quantity: line.quantity,
            sum: price === null ? null : price * line.quantity,
          },
        ]
      })
      return { lines, total: totalOf(lines), gone: list.length - lines.length }
    },
  }
}

export const requestListPlugin = fp(
  async (app) => {
    app.decorate('requestList', createRequestListSource(app.db))
  },
  { name: 'request-list', dependencies: ['db'] },
)
