// Process entry: read config, build, listen, and close gracefully on SIGINT/SIGTERM.
// Under PM2 (cluster, wait_ready) it reports 'ready' only once it accepts connections.
import { buildApp } from './app'
import { startLines } from './admin/start-line'
import { ConfigError, readConfig, type Config } from './config/config'

export async function main(): Promise<void> {
  let config: Config
  try {
    config = readConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }

  let app: Awaited<ReturnType<typeof buildApp>>
  try {
    app = await buildApp(config)
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    process.stderr.write(`Vitrina failed to start: ${(error as Error).message}\n`)
    process.exit(1)
  }
  process.send?.('ready')
  // The back office's address, how sign-in works and, while no password exists, the one-time link.
  process.stdout.write(`${(await startLines(app, config)).join('\n')}\n`)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'closing')
    const timer = setTimeout(() => process.exit(1), 10_000)
    timer.unref()
    // Node's server.close() destroys idle keep-alive sockets at once, racing a client that is just
    // sending its next request on one (a reset POST is a lost lead to that client). Instead they
    // end the way the client was told (Keep-Alive: timeout=5): a request that still arrives gets
    // its answer with Connection: close, and an idle socket times out, which the client saw coming.
    app.server.closeIdleConnections = () => {}
    try {
      await app.close() // stops accepting, finishes in-flight requests, closes the database
      process.exit(0)
    } catch {
      process.exit(1)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  // PM2 asks some workers to stop with an IPC message instead of a signal (reload, Windows).
  process.on('message', (message) => {
    if (message === 'shutdown') void shutdown('shutdown message')
  })
}

// PM2 cluster mode loads this file through its own wrapper, so run unconditionally.
await main()
