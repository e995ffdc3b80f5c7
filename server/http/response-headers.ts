// Baseline headers on every response (pages, API, assets).
import fp from 'fastify-plugin'
import type { Config } from '../config/config'

// fastify-plugin: its onSend hook must run for every route, so it lives in the root context.
export const responseHeadersPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const security = securityHeaders(config)
    // A callback, not an async hook: no promise on every response.
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.headers(security)
      // The server is closing (deploy, reload): this response is the connection's last.
      if (!app.server.listening) reply.header('connection', 'close')
      done(null, payload)
    })
  },
  { name: 'response-headers' },
)

/** The headers that limit what a page may do, besides its Content-Security-Policy. */
function securityHeaders(config: Pick<Config, 'publicUrl'>): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'SAMEORIGIN',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'cross-origin-opener-policy': 'same-origin',
    ...(config.publicUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  }
}
