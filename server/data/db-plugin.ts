// Opens the database for the app's lifetime and seeds the demo shop into an empty one.
import fp from 'fastify-plugin'
import type { KyselyPlugin } from 'kysely'
import type { Config } from '../config'
import { openDatabase, type Db } from './db'
import { seedDemoContent } from '../content/seed'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
  }
}

export const dbPlugin = fp<{ config: Config; plugins?: readonly KyselyPlugin[] }>(
  async (app, { config, plugins }) => {
    const db = await openDatabase(config.database, plugins)
    app.decorate('db', db)
    app.addHook('onClose', async () => {
      await db.destroy()
    })
    if (config.seedDemo && (await seedDemoContent(db, config.mediaDir))) {
      app.log.warn('Empty database: the demo shop was created (SEED_DEMO=false prevents it)')
    }
  },
  { name: 'db' },
)
