// Every GET that no other route took is a page (registered last): app.pages answers it
// (server/site/page-answer.ts). Pages go out as Buffers, which the root compression hook
// (server/http/compression.ts) compresses in one call: @fastify/compress's route hooks (its
// onRequest, preParsing and onSend) would only look and pass on every page request.
import type { FastifyInstance } from 'fastify'

export async function pageRoutes(app: FastifyInstance) {
  app.get('/*', { compress: false, decompress: false }, (request, reply) => app.pages.answer(request, reply))
}
