// Every GET that no other route took is a page: Vike renders it with the content service in
// pageContext (server-only, never passed to the client). Registered last. Routes only, so a
// plain (encapsulated) plugin: it decorates nothing.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { renderPage } from 'vike/server'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT_DIR, type Config } from '../config'
import { escapeHtml } from '../../src/format/escape-html'

type HttpResponse = NonNullable<Awaited<ReturnType<typeof renderPage>>['httpResponse']>

/** Copies a rendered page onto the reply: its status and headers (or the ones given) and body. */
export async function sendPage(
  reply: FastifyReply,
  page: HttpResponse,
  override: { status?: number; headers?: Record<string, string> } = {},
) {
  reply.code(override.status ?? page.statusCode)
  for (const [name, value] of page.headers) reply.header(name, value)
  for (const [name, value] of Object.entries(override.headers ?? {})) reply.header(name, value)
  return reply.send(await page.getBody())
}

function redirectBody(location: string): string {
  const href = escapeHtml(location)
  return `<!doctype html><html lang="ru"><meta charset="utf-8"><title>Страница переехала</title><p>Страница переехала: <a href="${href}">${href}</a></p></html>\n`
}

export async function vikeSsrRoutes(app: FastifyInstance, { config }: { config: Config }) {
  if (config.isProduction) {
    // Load the server build explicitly: works even if node_modules was reinstalled after the build.
    await import(pathToFileURL(path.join(ROOT_DIR, 'dist/server/entry.mjs')).href)
  }
  app.get('/*', async (request, reply) => {
    const pageContext = await renderPage({
      urlOriginal: request.raw.url ?? '/',
      headersOriginal: request.headers,
      content: app.content,
    })
    const { httpResponse } = pageContext
    // A 404/410 from `throw render()` is an answer, not a failure: only 5xx pages are errors.
    if (httpResponse.statusCode >= 500) {
      request.log.error({ err: pageContext.errorWhileRendering }, 'page rendering failed')
    }
    const location = httpResponse.headers.find(([name]) => name.toLowerCase() === 'location')?.[1]
    if (httpResponse.statusCode >= 300 && httpResponse.statusCode < 400 && location) {
      // Vike's redirect body is an English line with a script; a person who sees it gets a link.
      reply.code(httpResponse.statusCode).header('location', location)
      return reply.type('text/html; charset=utf-8').send(redirectBody(location))
    }
    return sendPage(reply, httpResponse)
  })
}
