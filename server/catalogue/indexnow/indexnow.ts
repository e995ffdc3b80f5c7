// IndexNow (docs/decisions/029-price-list-and-feeds.md): the key file at /<key>.txt, and a worker in
// every process that sends the outbox's URLs to Yandex in batches (POST /indexnow, ≤ 10,000 URLs),
// woken by this process's writes and polling for the others'. On when PUBLIC_URL is set and
// INDEXNOW is not off; the key is INDEXNOW_KEY, or one generated once and kept in the database.
import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import type { Db } from '../../data/db'
import { isDatabaseUnavailable } from '../../data/unavailable'
import { claimBatch, indexNowStats, markBatchFailed, markBatchSent, type ClaimedBatch } from './indexnow-outbox'

declare module 'fastify' {
  interface FastifyInstance {
    /** null when IndexNow is off */
    indexNow: IndexNowWorker | null
  }
}

const KEY_SETTING = 'indexnow.key'
const REQUEST_TIMEOUT_MS = 30_000

/** INDEXNOW_KEY, else the key kept in the database, else a new one kept there (the first process wins). */
export async function indexNowKey(db: Db, configured: string | null): Promise<string> {
  if (configured) return configured
  const read = async () =>
    (await db.selectFrom('siteSetting').select('value').where('name', '=', KEY_SETTING).executeTakeFirst())?.value
  const kept = await read()
  if (kept) return kept
  await db
    .insertInto('siteSetting')
    .values({ name: KEY_SETTING, value: randomBytes(16).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  return (await read())!
}

interface SendResult {
  readonly ok: boolean
  readonly message: string
  readonly permanent: boolean
  readonly retryAfterMs?: number
}

export class IndexNowWorker {
  private running: Promise<void> | null = null
  private stopped = false
  private woken = false
  private wakeUp: (() => void) | null = null

  constructor(
    private readonly db: Db,
    private readonly options: {
      endpoint: string
      key: string
      publicUrl: string
      log: FastifyBaseLogger
      pollMs?: number
    },
  ) {}

  get key(): string {
    return this.options.key
  }

  start(): void {
    if (this.running) return
    this.stopped = false
    this.running = this.loop()
  }

  /** URLs were queued in this process: send now instead of at the next poll. */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.wakeUp?.()
    await this.running
    this.running = null
  }

  stats() {
    return indexNowStats(this.db)
  }

  /** Claims and sends one batch; false when nothing was due. */
  async runOnce(at = new Date()): Promise<boolean> {
    const batch = await claimBatch(this.db, at)
    if (!batch) return false
    const result = await this.send(batch)
    if (result.ok) await markBatchSent(this.db, batch, at)
    else {
      this.options.log.warn({ status: result.message, urls: batch.urls.length }, 'IndexNow batch not accepted')
      await markBatchFailed(this.db, batch, result, at)
    }
    return true
  }

  private async send(batch: ClaimedBatch): Promise<SendResult> {
    const { endpoint, key, publicUrl } = this.options
    const undici = await import('undici') // on first use (decision 031, "Start-up")
    try {
      const response = await undici.fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          host: new URL(publicUrl).host,
          key,
          keyLocation: `${publicUrl}/${key}.txt`,
          urlList: batch.urls,
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      await response.arrayBuffer().catch(() => undefined)
      if (response.status === 200 || response.status === 202)
        return { ok: true, message: String(response.status), permanent: false }
      const retryAfter = Number(response.headers.get('retry-after'))
      return {
        ok: false,
        message: `HTTP ${response.status}`,
        // 400 bad request, 403 the key is not valid, 422 URLs of another host or a bad key: retrying cannot help.
        permanent: [400, 403, 405, 422].includes(response.status),
        retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 86_400) * 1000 : undefined,
      }
    } catch (error) {
      return {
        ok: false,
        message: (error as Error).name === 'TimeoutError' ? 'timeout' : 'network error',
        permanent: false,
      }
    }
  }

  private async loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 5000
    while (!this.stopped) {
      this.woken = false
      let sent = false
      try {
        sent = await this.runOnce()
      } catch (error) {
        if (!isDatabaseUnavailable(error)) this.options.log.error({ err: error }, 'IndexNow worker failed')
      }
      if (sent || this.stopped || this.woken) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wakeUp = null
    }
  }
}

export const indexNowPlugin = fp<{ config: Config; pollMs?: number }>(
  async (app: FastifyInstance, { config, pollMs }) => {
    const settings = config.feeds.indexNow
    if (!settings) {
      app.decorate('indexNow', null)
      return
    }
    const key = await indexNowKey(app.db, settings.key)
    const worker = new IndexNowWorker(app.db, {
      endpoint: settings.endpoint,
      key,
      publicUrl: config.publicUrl,
      log: app.log,
      pollMs,
    })
    app.decorate('indexNow', worker)
    // The write door queues the URLs a write changed; the worker sends them at once.
    app.writeDoor.onCommit(() => worker.wake())
    // The key file the protocol asks for: the key alone, as UTF-8 text.
    app.get(`/${key}.txt`, async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(key),
    )
    app.addHook('onReady', async () => worker.start())
    // preClose runs before every onClose hook, so the database is still open for the last marks.
    app.addHook('preClose', async () => {
      await worker.stop()
    })
  },
  { name: 'indexnow', dependencies: ['db', 'write-door'] },
)
