// The dispatcher every process runs: it claims due outbox rows with a lease, sends each through
// its channel, and marks it sent or failed. Woken at once by a new lead in this process, and
// polling for the rest (leads of other processes, retries that came due, expired leases). Each
// channel has a lane of its own, so a slow Telegram never holds up the e-mail. The channels can be
// replaced while it runs (the back office's «Настройки»): a lane claims only while its channel is on,
// and a replaced channel is closed once the sends under way had their time.
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { Database, DeliveryChannel, LeadDeliveryRow } from '../../data/schema'
import type { Channel } from './channels/channel'
import { toFailure } from './channels/channel'
import { loadDeliverableLead } from '../store/lead-queries'
import { claimDue, markFailed, markSent } from '../store/delivery-outbox'

export interface DispatcherOptions {
  /** How often the outbox is looked at when nothing woke the dispatcher */
  readonly pollMs?: number
  /** Rows of one channel claimed at once; they are sent in parallel */
  readonly batch?: number
}

/** Every channel a lane may serve, whether or not it is on now. */
const CHANNELS: readonly DeliveryChannel[] = ['email', 'telegram', 'webhook']
/** How long a replaced channel stays open for the sends under way: longer than any send may take */
const RETIRE_MS = 30_000

/** One channel's loop: its own claims, its own wake-up. */
interface Lane {
  readonly channel: DeliveryChannel
  woken: boolean
  wakeUp: (() => void) | null
}

export class LeadDispatcher {
  private channels: ReadonlyMap<DeliveryChannel, Channel>
  /** Replaced channels not closed yet */
  private readonly retired = new Set<Channel>()
  private readonly pollMs: number
  private readonly batch: number
  private running: Promise<unknown> | null = null
  private stopped = false
  private lanes: Lane[] = []

  constructor(
    private readonly db: Kysely<Database>,
    channels: readonly Channel[],
    private readonly log: FastifyBaseLogger,
    options: DispatcherOptions = {},
  ) {
    this.channels = new Map(channels.map((channel) => [channel.name, channel]))
    this.pollMs = options.pollMs ?? 2000
    this.batch = options.batch ?? 10
  }

  get channelNames(): DeliveryChannel[] {
    return [...this.channels.keys()]
  }

  start(): void {
    if (this.running) return
    this.stopped = false
    this.lanes = CHANNELS.map((channel) => ({ channel, woken: false, wakeUp: null }))
    this.running = Promise.all(this.lanes.map((lane) => this.loop(lane)))
  }

  /** New channels from now on; the old ones close once their sends under way are done. */
  replaceChannels(channels: readonly Channel[]): void {
    const old = [...this.channels.values()]
    this.channels = new Map(channels.map((channel) => [channel.name, channel]))
    for (const channel of old) {
      this.retired.add(channel)
      setTimeout(() => {
        if (this.retired.delete(channel)) void channel.close().catch(() => {})
      }, RETIRE_MS).unref()
    }
    this.wake()
  }

  /** A new lead is queued: look now instead of at the next poll. */
  wake(): void {
    for (const lane of this.lanes) {
      lane.woken = true
      lane.wakeUp?.()
    }
  }

  /** Stops claiming, lets the sends under way finish, and closes the channels. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const lane of this.lanes) lane.wakeUp?.()
    await this.running
    this.running = null
    const open = [...this.channels.values(), ...this.retired]
    this.retired.clear()
    await Promise.all(open.map((channel) => channel.close().catch(() => {})))
  }

  /** One pass of one channel: claims its due rows and delivers them. Returns how many it claimed. */
  async runOnce(channel: DeliveryChannel): Promise<number> {
    // A channel that is off claims nothing: its rows wait until it is on again.
    if (!this.channels.has(channel)) return 0
    const rows = await claimDue(this.db, this.batch, [channel])
    await Promise.all(rows.map((row) => this.deliver(row)))
    return rows.length
  }

  private async loop(lane: Lane): Promise<void> {
    let failing = false
    while (!this.stopped) {
      lane.woken = false
      let claimed = 0
      try {
        claimed = await this.runOnce(lane.channel)
        if (failing) this.log.info('lead outbox reachable again')
        failing = false
      } catch (error) {
        // The database is away: say so once, keep polling; the rows wait in the outbox.
        if (!failing) this.log.warn({ code: (error as { code?: string }).code }, 'lead outbox unreachable')
        failing = true
      }
      if (claimed === this.batch || lane.woken) continue
      await this.sleep(lane)
    }
  }

  private sleep(lane: Lane): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        lane.wakeUp = null
        resolve()
      }
      const timer = setTimeout(done, this.pollMs)
      timer.unref()
      lane.wakeUp = done
    })
  }

  private async deliver(row: LeadDeliveryRow): Promise<void> {
    const context = { deliveryId: row.id, leadId: row.feedbackId, channel: row.channel, attempt: row.attempts }
    const channel = this.channels.get(row.channel)
    try {
      const lead = await loadDeliverableLead(this.db, row.feedbackId)
      if (!channel || !lead) {
        // A lead deleted meanwhile is given up; a channel switched off meanwhile is tried again later.
        await markFailed(this.db, row, {
          message: channel ? 'lead deleted' : 'channel off',
          permanent: Boolean(channel),
        })
        return
      }
      try {
        await channel.send(lead)
      } catch (error) {
        const failure = toFailure(error)
        const status = await markFailed(this.db, row, failure)
        const log = status === 'dead' ? this.log.error.bind(this.log) : this.log.warn.bind(this.log)
        log({ ...context, error: failure.message, status }, 'lead delivery failed')
        return
      }
      if (await markSent(this.db, row)) this.log.info(context, 'lead delivered')
      else this.log.warn(context, 'lead delivered after its lease ran out')
    } catch (error) {
      // Sent or not, the row could not be marked: its lease runs out and it is tried again.
      this.log.warn({ ...context, code: (error as { code?: string }).code }, 'lead delivery not recorded')
    }
  }
}
