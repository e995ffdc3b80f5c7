// Baseline security headers on every response (pages, API, assets).
import fp from 'fastify-plugin'

export const securityHeadersPlugin = fp(async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    reply.header('x-frame-options', 'SAMEORIGIN')
  })
}, { name: 'security-headers' })
