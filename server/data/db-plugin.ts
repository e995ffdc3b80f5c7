// Opens the database for the app's lifetime (migrated to the latest schema) and closes it with the app.
import fp from 'fastify-plugin'
import type { KyselyPlugin } from 'kysely'
import type { Config } from '../config/config'
import { openDatabase, type Db } from './db'
import { leadSearchIndexWarning } from './lead-search-index'

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
    const warning = await leadSearchIndexWarning(db)
    if (warning) app.log.warn(warning)
  },
  { name: 'db' },
)
