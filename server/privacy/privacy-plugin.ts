// Personal data in the app (docs/decisions/027-personal-data.md): app.privacy holds the clock,
// the retention job and a person's data on request. Every process checks the retention job now
// and then (the lease lets one run it) and prunes its own host's old dead letters.
import fp from 'fastify-plugin'
import type { Config } from '../config/config'
import { createRetention, type Retention } from './retention'
import { createSubjectRequests, type SubjectRequests } from './subject'

declare module 'fastify' {
  interface FastifyInstance {
    privacy: {
      readonly now: () => Date
      readonly retention: Retention
      readonly subjects: SubjectRequests
      /** One retention check now, as the timer does: the job if due, then this host's dead letters */
      check(): Promise<void>
    }
  }
}

/** How often each process looks whether the daily run is due. */
const CHECK_EVERY_MS = 60 * 60 * 1000

export const privacyPlugin = fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now = () => new Date() }) => {
    const retention = createRetention(app.db, { days: config.leadRetentionDays, now })
    const subjects = createSubjectRequests(app.db, app.leadJournal)

    async function check(): Promise<void> {
      const result = await retention.runIfDue()
      if (result && (result.leads > 0 || result.deliveries > 0)) {
        app.log.info({ leads: result.leads, deliveries: result.deliveries }, 'retention: old leads anonymised')
      }
      if (config.leadRetentionDays > 0) {
        const cutoff = retention.cutoffAt(now())
        const pruned = await app.leadJournal.pruneDeadLetters((letter) => letter.movedAt < cutoff)
        if (pruned > 0) app.log.info({ pruned }, 'retention: old dead letters removed')
      }
    }

    app.decorate('privacy', { now, retention, subjects, check })

    let timer: NodeJS.Timeout | null = null
    let running: Promise<void> | null = null
    const tick = () => {
      running = check()
        .catch((error: unknown) => {
          app.log.warn({ code: (error as { code?: string }).code }, 'retention check failed; next check later')
        })
        .finally(() => {
          running = null
          if (timer) schedule()
        })
    }
    const schedule = () => {
      timer = setTimeout(tick, CHECK_EVERY_MS)
      timer.unref()
    }
    app.addHook('onReady', async () => {
      timer = setTimeout(tick, 0)
      timer.unref()
    })
    app.addHook('preClose', async () => {
      if (timer) clearTimeout(timer)
      timer = null
      await running
    })
  },
  { name: 'privacy', dependencies: ['db', 'lead-intake'] },
)
