// The content service every page renders from, shared by SSR, the sitemap and content writes.
import fp from 'fastify-plugin'
import type { Config } from '../config'
import { ContentService } from './content-service'

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentService
  }
}

export const contentPlugin = fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now }) => {
    const content = new ContentService(app.db, {
      ttlSeconds: config.structureTtl,
      now: now && (() => now().getTime()),
      publicSettings: { publicUrl: config.publicUrl, mediaUrl: config.mediaUrl, metrikaId: config.metrikaId },
    })
    app.decorate('content', content)
    // Load the route map at start so the first visitor does not wait for it.
    await content.routes()
  },
  { name: 'content', dependencies: ['db'] },
)
