// Baseline headers on every response (pages, API, assets).
import fp from 'fastify-plugin'

// fastify-plugin: its onSend hook must run for every route, so it lives in the root context.
export const responseHeadersPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      // The server is closing (deploy, reload): this response is the connection's last.
      if (!app.server.listening) reply.header('connection', 'close')
      reply.header('x-content-type-options', 'nosniff')
      reply.header('referrer-policy', 'strict-origin-when-cross-origin')
      reply.header('x-frame-options', 'SAMEORIGIN')
    })
  },
  { name: 'response-headers' },
)
