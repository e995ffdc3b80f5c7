// Lead delivery in the app: builds the configured channels, runs this process's dispatcher from
// ready to close, and lets the intake wake it (app.leadDelivery). The channels follow the settings
// in effect (the environment's, else the back office's «Настройки»): a change made in any process
// rebuilds them here within a few seconds (docs/decisions/039-settings.md).
import fp from 'fastify-plugin'
import type { Config } from '../../config/config'
import { configuredChannels } from '../../config/delivery-config'
import type { EffectiveSettings } from '../../settings/effective-settings'
import type { DeliveryChannel } from '../../data/schema'
import type { Channel } from './channels/channel'
import { emailChannel } from './channels/email'
import { telegramChannel } from './channels/telegram'
import { webhookChannel } from './channels/webhook'
import { LeadDispatcher, type DispatcherOptions } from './dispatcher'
import { outboxStats, type OutboxStats } from '../store/delivery-outbox'
import type { MessageContext } from './channels/lead-message'

interface LeadDelivery {
  /** The channels a new lead is queued for: every configured one, read at use time */
  readonly channels: readonly DeliveryChannel[]
  /** A lead was queued: deliver it now rather than at the next poll */
  wake(): void
  /** The backlog the owner's /readyz shows: pending and dead deliveries */
  stats(): Promise<OutboxStats>
}

declare module 'fastify' {
  interface FastifyInstance {
    leadDelivery: LeadDelivery
  }
}

function createChannels(config: Config, settings: EffectiveSettings): Channel[] {
  const ctx: MessageContext = { publicUrl: settings.publicUrl, timeZone: config.siteTimezone }
  const { email, telegram, webhook } = settings.delivery
  return [
    ...(email ? [emailChannel(email, ctx)] : []),
    ...(telegram ? [telegramChannel(telegram, ctx)] : []),
    ...(webhook ? [webhookChannel(webhook, ctx)] : []),
  ]
}

export const deliveryPlugin = fp<{ config: Config; dispatcher?: DispatcherOptions }>(
  async (app, { config, dispatcher: options }) => {
    const dispatcher = new LeadDispatcher(app.db, createChannels(config, app.settings.current()), app.log, options)
    app.decorate('leadDelivery', {
      get channels() {
        return configuredChannels(app.settings.current().delivery)
      },
      wake: () => dispatcher.wake(),
      stats: () => outboxStats(app.db),
    })
    app.settings.onChange((next, previous) => {
      const same = (s: EffectiveSettings) => JSON.stringify([s.delivery, s.publicUrl])
      if (same(next) === same(previous)) return
      dispatcher.replaceChannels(createChannels(config, next))
      app.log.info({ channels: dispatcher.channelNames }, 'lead delivery channels changed')
    })
    app.addHook('onReady', async () => {
      dispatcher.start()
      if (dispatcher.channelNames.length > 0) app.log.info({ channels: dispatcher.channelNames }, 'lead delivery on')
    })
    // preClose runs before every onClose hook, so the database is still open for the last marks.
    app.addHook('preClose', async () => {
      await dispatcher.stop()
    })
  },
  { name: 'lead-delivery', dependencies: ['db', 'settings'] },
)
