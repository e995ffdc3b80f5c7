// Everything under /api/admin: the session and the owner's password, the lead inbox, the price
// list and the feeds' status, the search of records, the content tree and «Настройки».
// Encapsulated, so its error handler (the Russian
// message and field errors of each HttpError) and `no-store` stay inside it; nothing the owner sees
// is kept by a browser or proxy cache.
import type { FastifyInstance } from 'fastify'
import type { Config } from './config/config'
import { createErrorHandler } from './http/errors'
import { leadRoutes } from './leads/inbox/inbox-routes'
import { searchRoutes } from './catalogue/search/admin-search-routes'
import { privacyRoutes } from './privacy/privacy-routes'
import { priceListRoutes } from './catalogue/price-list/price-routes'
import { priceExportRoutes } from './catalogue/price-list/price-export-routes'
import { productTableRoutes } from './catalogue/product-table/product-table-routes'
import { variantEditorRoutes } from './catalogue/product-table/variant-editor-routes'
import { feedsStatusRoutes } from './catalogue/feed/feeds-routes'
import { exchangeAdminRoutes } from './catalogue/exchange/exchange-admin-routes'
import { characteristicRoutes } from './catalogue/characteristics/characteristic-routes'
import { contentRoutes } from './admin/content-routes'
import { demoShopRoutes } from './catalogue/demo-shop-routes'
import { sessionRoutes } from './admin/session-routes'
import { settingsRoutes } from './settings/settings-routes'
import { passwordRoutes } from './admin/password-routes'

export async function adminRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })
  app.setErrorHandler(createErrorHandler({ scope: 'admin', headers: { 'cache-control': 'no-store' } }))

  await app.register(sessionRoutes, { config })
  await app.register(passwordRoutes, { config })
  await app.register(leadRoutes, { config })
  await app.register(searchRoutes, { config })
  await app.register(privacyRoutes, { config })
  await app.register(priceListRoutes, { config })
  await app.register(priceExportRoutes, { config })
  await app.register(productTableRoutes, { config })
  await app.register(variantEditorRoutes, { config })
  await app.register(feedsStatusRoutes, { config })
  await app.register(exchangeAdminRoutes, { config })
  await app.register(characteristicRoutes, { config })
  await app.register(contentRoutes, { config })
  await app.register(demoShopRoutes, { config })
  await app.register(settingsRoutes, { config })
}
