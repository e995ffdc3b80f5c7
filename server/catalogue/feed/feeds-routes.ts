// The back office's «Выгрузки» (docs/decisions/029-price-list-and-feeds.md), owner only:
//   GET /api/admin/feeds   the Yandex feed's URL when it is on, its default brand, and what Yandex
//                          Товары would refuse of it (offers without a brand, a picture or a
//                          description: counts and the first few); IndexNow: on or off, its key
//                          file, the URLs waiting and sent, and the dead batches with their reason
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { ADMIN_API_PATHS, PATHS } from '../../../src/site/paths'
import { routeOf } from '../../http/route-path'
import { indexNowStats } from '../indexnow/indexnow-outbox'
import { loadFeedRefusals } from './feed-store'

export async function feedsStatusRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.feeds), async (request) => {
    requireAdmin(await access(request))
    const worker = app.indexNow
    // The settings in effect: YANDEX_FEED…, else the back office's «Настройки»
    const { feeds, publicUrl } = app.settings.current()
    return {
      data: {
        yandexFeed: {
          enabled: feeds.yandexFeed,
          url: feeds.yandexFeed ? `${publicUrl}${PATHS.yandexFeed}` : null,
          defaultVendor: feeds.defaultVendor,
          // Shown while the feed is off too: what to fix before turning it on.
          ...(await loadFeedRefusals(app.db, feeds.defaultVendor)),
        },
        // Off: the outbox may still hold what an earlier run left, shown all the same.
        indexNow: {
          enabled: worker !== null,
          keyUrl: worker ? `${config.publicUrl}/${worker.key}.txt` : null,
          ...(await indexNowStats(app.db)),
        },
      },
    }
  })
}
