// The content service every page renders from, shared by SSR, the sitemap and content writes; an
// empty database gets the demo shop first (SEED_DEMO), an older one the documents it lacks, both
// through the write door. Every write the door commits drops this process's route map and caches
// (the page cache only the pages it changed).
import fp from 'fastify-plugin'
import type { Config } from '../config/config'
import type { EffectiveSettings } from '../settings/effective-settings'
import type { PublicSettings } from '../../src/site/types'
import { ContentService } from './content-service'
import { addMissingDocuments, type OperatorValues } from '../content/documents'
import { seedDemoContent, storeInFolder, type StoreImage } from '../catalogue/demo-seed'

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
  /** The operator's details the privacy documents name (the privacy capability reads them) */
  readonly operator?: () => Promise<OperatorValues>
}

function publicSettingsOf(config: Config, settings: EffectiveSettings): PublicSettings {
  return {
    publicUrl: settings.publicUrl,
    mediaUrl: config.mediaUrl,
    metrikaId: settings.metrikaId,
    metrikaTagUrl: config.metrikaTagUrl,
  }
}

export const contentPlugin = fp<ContentPluginOptions>(
  async (app, { config, now, storeDemoImage, operator }) => {
    if (config.seedDemo && (await seedDemoContent(app.writeDoor, storeDemoImage ?? storeInFolder(config.mediaDir)))) {
      app.log.warn('Empty database: the demo shop was created (SEED_DEMO=false prevents it)')
    }
    // A database made before the documents on personal data gets the ones it lacks (decision 027).
    const documents = await addMissingDocuments(app.writeDoor)
    if (documents.length > 0)
      app.log.warn(`Documents on personal data written from the templates: ${documents.join(', ')}`)
    const content = new ContentService(app.db, {
      ttlSeconds: config.structureTtl,
      now: now && (() => now().getTime()),
      publicSettings: publicSettingsOf(config, app.settings.current()),
      operator,
    })
    app.decorate('content', content)
    app.writeDoor.onCommit((summary) => content.invalidate(summary.pages, summary.version))
    // The site's address or counter changed in «Настройки» (this process or another): new pages.
    app.settings.onChange((next, previous) => {
      if (next.publicUrl !== previous.publicUrl || next.metrikaId !== previous.metrikaId)
        content.setPublicSettings(publicSettingsOf(config, next))
    })
    // Load the route map at start so the first visitor does not wait for it.
    await content.routes()
  },
  { name: 'content', dependencies: ['db', 'write-door', 'settings'] },
)
