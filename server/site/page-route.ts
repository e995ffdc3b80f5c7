// Every GET that no other route took is a page (registered last): app.pages answers it
// (server/site/page-answer.ts). Pages go out as Buffers, which the root compression hook
// (server/http/compression.ts) compresses in one call: @fastify/compress's route hooks (its
// onRequest, preParsing and onSend) would only look and pass on every page request.
//
// A path has one spelling (issue #43): `/structure/%70ower-tools/` answers 301 to
// `/structure/power-tools/` before the page cache, which kept a page per spelling (2^16 of one path,
// each pushing real pages out). Escapes that must stay (`%2F`, `%D0%B4`) only get upper-case hex.
import type { FastifyInstance } from 'fastify'
import { canonicalSpelling } from '../../src/site/url'
import type { Config } from '../config/config'
import { sendMovedPermanently } from './page-redirect'

export async function pageRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.get('/*', { compress: false, decompress: false }, (request, reply) => {
    const spelled = canonicalSpelling(request.raw.url ?? '/')
    if (spelled !== null) return sendMovedPermanently(reply, config, spelled)
    return app.pages.answer(request, reply)
  })
}
