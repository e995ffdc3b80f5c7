// The settings in effect for this process (app.settings): loaded at start, and again whenever the
// stored version moved. Every process reads that version every POLL_MS (one row by its primary
// key), so a change the owner saves on any host is in effect everywhere within a few seconds,
// without a restart (docs/decisions/039-settings.md). Listeners hear each new set of settings.
import fp from 'fastify-plugin'
import type { Config } from '../config/config'
import type { Db } from '../data/db'
import { effectiveSettings, type EffectiveSettings } from './effective-settings'
import { readSettingsVersion, readStoredSettings, writeStoredSettings, type SettingChange } from './settings-store'

/** How often each process looks at the stored version */
export const POLL_MS = 2000

type Listener = (next: EffectiveSettings, previous: EffectiveSettings) => void

export class SettingsService {
  private settings: EffectiveSettings
  private readonly listeners: Listener[] = []
  private timer: NodeJS.Timeout | null = null
  private checking: Promise<void> | null = null

  constructor(
    private readonly db: Db,
    readonly config: Config,
    initial: EffectiveSettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.settings = initial
  }

  /** `onError` hears each failed check, and null after each good one. */
  static async load(db: Db, config: Config, onError?: (error: unknown) => void): Promise<SettingsService> {
    return new SettingsService(db, config, effectiveSettings(config, await readStoredSettings(db)), onError)
  }

  /** The settings in effect now: read at use time, never kept across requests. */
  current(): EffectiveSettings {
    return this.settings
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener)
  }

  /** Writes changes (with their audit entries) and puts them in effect in this process at once. */
  async write(changes: readonly SettingChange[], who: string, at: Date): Promise<void> {
    await writeStoredSettings(this.db, changes, who, at)
    await this.refresh()
  }

  /** Reads the stored version and, when it moved, the settings. */
  async check(): Promise<void> {
    this.checking ??= (async () => {
      try {
        if ((await readSettingsVersion(this.db)) !== this.settings.version) await this.refresh()
        this.onError(null)
      } catch (error) {
        // The database is away: the settings in effect stay; the next poll tries again.
        this.onError(error)
      } finally {
        this.checking = null
      }
    })()
    return this.checking
  }

  private async refresh(): Promise<void> {
    const next = effectiveSettings(this.config, await readStoredSettings(this.db))
    const previous = this.settings
    if (next.version === previous.version) return
    this.settings = next
    for (const listener of this.listeners) listener(next, previous)
  }

  start(pollMs = POLL_MS): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.check(), pollMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: SettingsService
  }
}

export const settingsPlugin = fp<{ config: Config; pollMs?: number }>(
  async (app, { config, pollMs }) => {
    let failing = false
    const service = await SettingsService.load(app.db, config, (error) => {
      // Said once while the database is away, and once when it is back.
      if (error === null) {
        if (failing) app.log.info('settings version readable again')
        failing = false
      } else {
        if (!failing) app.log.warn({ code: (error as { code?: string }).code }, 'settings version unreadable')
        failing = true
      }
    })
    app.decorate('settings', service)
    app.addHook('onReady', async () => service.start(pollMs))
    app.addHook('onClose', async () => service.stop())
  },
  { name: 'settings', dependencies: ['db'] },
)
