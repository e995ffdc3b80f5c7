// The content service every page renders from, shared by SSR, the sitemap and content writes; an
// empty database gets the demo shop first (SEED_DEMO), an older one the documents it lacks.
import fp from 'fastify-plugin'
import type { Config } from '../config'
import { operatorDetails } from '../privacy/operator'
import { ContentService } from './content-service'
import { addMissingDocuments } from '../content/documents'
import { seedDemoContent, storeInFolder, type StoreImage } from '../content/seed'

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentService
  }
}

interface ContentPluginOptions {
  readonly config: Config
  readonly now?: () => Date
  /** Where the demo shop's images go: the app's media store (default: the MEDIA_DIR folder) */
  readonly storeDemoImage?: StoreImage
}

export const contentPlugin = fp<ContentPluginOptions>(
  async (app, { config, now, storeDemoImage }) => {
    if (config.seedDemo && (await seedDemoContent(app.db, storeDemoImage ?? storeInFolder(config.mediaDir)))) {
      app.log.warn('Empty database: the demo shop was created (SEED_DEMO=false prevents it)')
    }
    // A database made before the documents on personal data gets the ones it lacks (decision 027).
    const documents = await addMissingDocuments(app.db, (now?.() ?? new Date()).toISOString())
    if (documents.length > 0)
      app.log.warn(`Documents on personal data written from the templates: ${documents.join(', ')}`)
    const content = new ContentService(app.db, {
      ttlSeconds: config.structureTtl,
      now: now && (() => now().getTime()),
      publicSettings: {
        publicUrl: config.publicUrl,
        mediaUrl: config.mediaUrl,
        metrikaId: config.metrikaId,
        metrikaTagUrl: config.metrikaTagUrl,
      },
      operator: async () => (await operatorDetails(app.db, config)).values,
    })
    app.decorate('content', content)
    // Load the route map at start so the first visitor does not wait for it.
    await content.routes()
  },
  { name: 'content', dependencies: ['db'] },
)
