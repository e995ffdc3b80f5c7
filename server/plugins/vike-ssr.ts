// Every GET that no other route took is a page: Vike renders it with the content service in
// pageContext (server-only, never passed to the client). Registered last.
import fp from 'fastify-plugin'
import { renderPage } from 'vike/server'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT_DIR, type Config } from '../config'

export const vikeSsrPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
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
      reply.code(httpResponse.statusCode)
      for (const [name, value] of httpResponse.headers) reply.header(name, value)
      return reply.send(await httpResponse.getBody())
    })
  },
  { name: 'vike-ssr', dependencies: ['content'] },
)
