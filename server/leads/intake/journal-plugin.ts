// Leads accepted while the database is down (docs/decisions/013-lead-journal.md): the intake
// writes them to this process's journal (fsync before answering); every few seconds the journal is
// drained into the database through storeLead, whose idempotency key makes a repeat harmless,
// and the dispatcher is woken for their deliveries. app.leadJournal is what the intake and readyz use.
import fp from 'fastify-plugin'
import { storeLead, type NewLead } from '../lead-store'
import type { Config } from '../../config'
import { LeadJournal } from './journal'

/** A lead as journaled: everything storeLead needs except the channels (today's, on replay). */
export type JournaledLead = Omit<NewLead, 'channels' | 'idempotencyKey'> & {
  readonly at: string
  readonly idempotencyKey: string
}

interface LeadJournalApi {
  /** Writes the lead to disk (fsync) and resolves once it is there */
  append(entry: JournaledLead): Promise<void>
  /** Bytes waiting to be stored */
  bytes(): number
}

declare module 'fastify' {
  interface FastifyInstance {
    leadJournal: LeadJournalApi
  }
}

const DRAIN_EVERY_MS = 2000

export const journalPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const journal = new LeadJournal<JournaledLead>(config.leadJournalDir, app.log)
    app.decorate('leadJournal', { append: (entry) => journal.append(entry), bytes: () => journal.size() })

    let timer: NodeJS.Timeout | null = null
    let draining: Promise<void> | null = null
    let failing = false
    const drain = async () => {
      if (journal.size() === 0) return
      try {
        const { stored, skipped } = await journal.drain(async (entry) => {
          await storeLead(app.db, { ...entry, channels: entry.spam ? [] : app.leadDelivery.channels })
        })
        failing = false
        app.log.info({ stored, skipped }, 'lead journal drained into the database')
        app.leadDelivery.wake()
      } catch (error) {
        // Still down: the records stay; say so once per outage.
        if (!failing) app.log.warn({ code: (error as { code?: string }).code }, 'lead journal waits for the database')
        failing = true
      }
    }
    const schedule = () => {
      timer = setTimeout(() => {
        draining = drain().finally(() => {
          draining = null
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
  { name: 'lead-journal', dependencies: ['db', 'lead-delivery'] },
)
