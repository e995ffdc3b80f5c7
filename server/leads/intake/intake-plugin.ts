// The lead intake in the app (docs/decisions/013-lead-journal.md, 023): app.leadIntake is what
// POST /api/feedback and the no-JS form hand a lead to; app.leadJournal is what /readyz and the
// back office read. Leads journaled while the database was away are drained into it at start and
// every few seconds, and the dispatcher is woken for their deliveries.
import fp from 'fastify-plugin'
import type { Config } from '../../config/config'
import { isDatabaseUnavailable } from '../../data/unavailable'
import { createLeadIntake, type JournaledLead, type LeadIntake } from './intake'
import { LeadJournal, type DeadLetter } from './journal'

interface LeadJournalApi {
  /** Bytes waiting to be stored */
  bytes(): number
  /** Leads the database refused for good, as the dead-letter file keeps them */
  deadLetters(): DeadLetter<JournaledLead>[]
  /** Drains now (or waits for the drain under way), e.g. at start or in a test */
  drain(): Promise<void>
  /** Removes the dead letters `drop` picks (retention, a person's request); how many it removed */
  pruneDeadLetters(drop: (letter: DeadLetter<JournaledLead>) => boolean): Promise<number>
}

declare module 'fastify' {
  interface FastifyInstance {
    leadIntake: LeadIntake
    leadJournal: LeadJournalApi
  }
}

const DRAIN_EVERY_MS = 2000

export const intakePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const journal = new LeadJournal<JournaledLead>(config.leadJournalDir, app.log, {
      maxBytes: config.leadJournalMaxBytes,
      isTransient: isDatabaseUnavailable,
    })
    const intake = createLeadIntake({
      db: app.db,
      content: app.content,
      journal,
      delivery: app.leadDelivery,
      log: app.log,
      minFillSeconds: config.leadMinFillSeconds,
    })

    let timer: NodeJS.Timeout | null = null
    let draining: Promise<void> | null = null
    let failing = false
    const drainOnce = async () => {
      if (journal.size() === 0) return
      try {
        const { stored, skipped, deadLetters } = await intake.drainJournal()
        failing = false
        app.log.info({ stored, skipped, deadLetters }, 'lead journal drained into the database')
      } catch (error) {
        // Still away: the records stay; say so once per outage.
        if (!failing) app.log.warn({ code: (error as { code?: string }).code }, 'lead journal waits for the database')
        failing = true
      }
    }
    const drain = () => (draining ??= drainOnce().finally(() => (draining = null)))

    app.decorate('leadIntake', intake)
    app.decorate('leadJournal', {
      bytes: () => journal.size(),
      deadLetters: () => journal.deadLetters(),
      drain,
      pruneDeadLetters: (drop) => journal.pruneDeadLetters(drop),
    })

    const schedule = () => {
      timer = setTimeout(() => {
        void drain().finally(() => {
          if (timer) schedule()
        })
      }, DRAIN_EVERY_MS)
      timer.unref()
    }
    app.addHook('onReady', async () => {
      await drain() // what an earlier run left behind
      schedule()
    })
    app.addHook('preClose', async () => {
      if (timer) clearTimeout(timer)
      timer = null
      await draining
    })
  },
  { name: 'lead-intake', dependencies: ['db', 'content', 'lead-delivery'] },
)
