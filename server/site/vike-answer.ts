// A page Vike's renderPage() rendered, as the page cache keeps it and the route sends it
// (server/site/page-answer.ts): its status and headers with the page's own (pageHeaders), the
// CSP with the rendering's nonce and, on an HTML page, the speculation rules' header; whether and
// under which key it may be kept; a redirect with a body a person can follow; and a database away
// told apart from a failed page.
import type { FastifyBaseLogger } from 'fastify'
import type { renderPage } from 'vike/server'
import { errorBody } from '../http/errors'
import { isDatabaseUnavailable } from '../data/unavailable'
import { contentSecurityPolicy } from '../http/csp'
import { keyWith, type RenderedPage } from './page-cache'
import { redirectBody } from './page-redirect'
import { carriesSpeculationRules, SPECULATION_RULES_HEADER } from './speculation-rules'

type VikePageContext = Awaited<ReturnType<typeof renderPage>>

interface VikeAnswerOptions {
  readonly url: string
  /** Rendered with values of one visitor (a refused lead's form): never kept */
  readonly oneOff: boolean
  readonly nonce: string
  readonly tags: RenderedPage['tags']
  readonly policy: Parameters<typeof contentSecurityPolicy>[0]
  readonly log: FastifyBaseLogger
}

/** The answer of Vike's rendering, with its HTML when it is a page (for the direct path to learn from). */
export async function vikeAnswer(
  pageContext: VikePageContext,
  options: VikeAnswerOptions,
): Promise<{ rendered: RenderedPage; html: string | null } | 'unavailable'> {
  const { url, oneOff, nonce, tags, policy, log } = options
  const { httpResponse, errorWhileRendering } = pageContext
  if (httpResponse.statusCode >= 500 && isDatabaseUnavailable(errorWhileRendering)) return 'unavailable'
  // A 404/410 from `throw render()` is an answer, not a failure: only 5xx pages are errors.
  if (httpResponse.statusCode >= 500) log.error({ err: errorWhileRendering }, 'page rendering failed')
  const pageConfig = pageContext.config as Partial<Vike.Config> & { isClientRuntimeLoaded?: boolean }
  // Public pages are HTML only (docs/decisions/021-islands.md): their pageContext.json, which
  // only Vike's client router would ask for, does not exist. The back office still routes in
  // the browser and keeps it.
  if (pageContext.isClientSideNavigation && pageConfig.isClientRuntimeLoaded !== true) {
    const body = Buffer.from(JSON.stringify(errorBody(404)))
    const headers = { 'content-type': 'application/json; charset=utf-8' }
    return { rendered: { status: 404, headers, body, keepAs: null, query: null, tags }, html: null }
  }
  const keepable = pageConfig.pageCache !== false && !oneOff
  const query = keepable ? (pageConfig.pageQuery ?? []) : null
  // Kept only when rendered from exactly the parameters the page reads, so nothing else leaks in.
  const keepAs = query !== null && keyWith(new URL(url, 'http://localhost'), query) === url ? url : null
  const headers = Object.fromEntries(httpResponse.headers.map(([name, value]) => [name.toLowerCase(), value]))
  for (const [name, value] of Object.entries(pageConfig.pageHeaders ?? {})) headers[name] = value
  if (!keepable) headers['cache-control'] = 'no-store'
  const { location } = headers
  if (httpResponse.statusCode >= 300 && httpResponse.statusCode < 400 && location) {
    // A redirect to the same path (a page's parameters put in their canonical spelling) renders
    // no page, so it cannot say which parameters the page reads: it is neither kept nor learned from.
    const samePath = new URL(location, 'http://localhost').pathname === new URL(url, 'http://localhost').pathname
    // Vike's redirect body is an English line with a script; a person who sees it gets a link.
    const rendered: RenderedPage = {
      status: httpResponse.statusCode,
      headers: {
        location,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': contentSecurityPolicy(policy),
      },
      body: Buffer.from(redirectBody(location)),
      keepAs: samePath ? null : keepAs,
      query: samePath ? null : query,
      tags,
    }
    return { rendered, html: null }
  }
  if (headers['content-type']?.startsWith('text/html')) {
    headers['content-security-policy'] = contentSecurityPolicy(policy, nonce)
    // The speculation rules by header: every HTML page, the 404 and 410 pages too, but the back office.
    if (carriesSpeculationRules(pageConfig)) Object.assign(headers, SPECULATION_RULES_HEADER)
  }
  const html = await httpResponse.getBody()
  return { rendered: { status: httpResponse.statusCode, headers, body: Buffer.from(html), keepAs, query, tags }, html }
}
