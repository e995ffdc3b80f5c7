// The catalogue's pages without Vike's renderPage() (docs/decisions/036-direct-render.md, 037). A
// page that declares `directRender` (pages/cms) is rendered by Vike first; from that rendering the
// server keeps the page's components, its settings, the function that makes every page's document
// (renderer/document.ts, which Vike's +onRenderHtml calls too) and what Vike put around that document
// (the stylesheet and script tags). Later answers of that page whose data resolve to a 200 are
// rendered here: the same one content-service call as its `+data` (content.pageOf(): the page and
// its site), the same document function.
// Everything else (redirects, 404/410, other pages, errors, a refused lead's form, the client
// router's pageContext.json) still goes through Vike, and so does every page once the path meets
// something it does not do: a setting or hook it does not know (DIRECT_SETTINGS), a document
// setting the document function does not make, a pageContext field a component reads that the
// path does not give, or Vike's HTML being anything but the document with its two pieces added.
import type { PageContextServer } from 'vike/types'
import { pageSettings } from '../../src/site/head-tags'
import { checkReads, type PageReads } from '../../src/site/page-tags'
import { isAdminPath, PATHS } from '../../src/site/paths'
import type { ContentSource, PageData } from '../../src/site/types'
import { isDatabaseUnavailable } from '../data/unavailable'
import { keyWith, type RenderedPage } from './page-cache'
import { pageContextOf, RefusedField, refusedSettings } from './direct-settings'
import { carriesSpeculationRules, SPECULATION_RULES_HEADER } from './speculation-rules'

/** The document function Vike's pageContext carries (renderer/document.ts, the `document` setting). */
type DocumentFunction = (
  pageContext: PageContextServer,
) => { readonly pieces: readonly [string, string, string] } | { readonly unsupported: readonly string[] }

/** What the page answerer needs of Vike's rendering to learn from it. */
export interface VikeRendering {
  readonly pageId?: string | null
  readonly Page?: unknown
  readonly config?: object
  readonly httpResponse: { readonly statusCode: number; readonly headers: readonly (readonly [string, string])[] }
  readonly isClientSideNavigation?: boolean
  readonly errorWhileRendering?: unknown
  readonly data?: unknown
  readonly site?: unknown
}

/** The pages Vike routes before the catch-all: never answered here, whatever records the site has. */
const OTHER_PAGES = [PATHS.search, PATHS.leadForm, PATHS.leadThanks]
/** Paths rendered here: plain ASCII segments; anything Vike might decode or treat apart goes to Vike. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*\/?)*$/

interface Learned {
  readonly pageId: string
  readonly Page: unknown
  readonly config: Vike.Config & Record<string, unknown>
  readonly document: DocumentFunction
  /** Vike's answer headers for the page (lower-case names) */
  readonly headers: Readonly<Record<string, string>>
  /** What Vike put after `<head>` and before `</body>`, split where each rendering's nonce goes */
  readonly headInjection: readonly string[]
  readonly bodyInjection: readonly string[]
}

export interface DirectRendererOptions {
  readonly content: ContentSource
  /** Development: a page's data are checked against its reads, as its `+data` does */
  readonly development: boolean
  /** The answer's Content-Security-Policy for a rendering's nonce */
  readonly policy: (nonce: string) => string
  readonly warn: (message: string) => void
}

export class DirectRenderer {
  #learned: Learned | null = null
  #refused = false

  constructor(private readonly options: DirectRendererOptions) {}

  /** Whether answers are rendered here yet (after Vike's first rendering of such a page) */
  get ready(): boolean {
    return this.#learned !== null
  }

  /**
   * After Vike answered `url` with `html`: keeps what it needs to render the page's later answers,
   * if the page declares `directRender`, has no setting this path does not do, and Vike's HTML is
   * the document function's output with Vike's two pieces added.
   */
  learn(rendering: VikeRendering, url: string, html: string, nonce: string): void {
    if (this.#learned || this.#refused) return
    const config = (rendering.config ?? {}) as Vike.Config & Record<string, unknown>
    const { httpResponse, Page } = rendering
    if (config.directRender !== true || rendering.isClientSideNavigation || rendering.errorWhileRendering) return
    if (httpResponse.statusCode !== 200 || !Page || !directPath(splitUrl(url).pathname)) return
    const headers = Object.fromEntries(httpResponse.headers.map(([name, value]) => [name.toLowerCase(), value]))
    if (!headers['content-type']?.startsWith('text/html')) return
    const refused = refusedSettings(config)
    if (refused.length > 0) return this.#refuse(`the page sets ${refused.join(', ')}`)
    if (typeof config.document !== 'function') return this.#refuse('the page has no document function')
    const candidate = { pageId: rendering.pageId ?? '', Page, config, headers, document: config.document }
    let ours: ReturnType<DocumentFunction>
    try {
      ours = candidate.document(this.#pageContext(candidate, url, rendering.data as PageData, rendering.site, nonce))
    } catch (error) {
      return this.#refuse(error instanceof RefusedField ? `the page reads ${error.message}` : String(error))
    }
    if ('unsupported' in ours) return this.#refuse(`the document does not make ${ours.unsupported.join(', ')}`)
    const parts = injections(ours.pieces, html, nonce)
    if (!parts) return this.#refuse('its HTML differs from what Vike rendered')
    this.#learned = { ...candidate, ...parts }
  }

  /**
   * The page at `url` rendered here, or null when Vike must render it (not learned yet, another
   * page, a redirect, a 404, an error); 'unavailable' when the database is away.
   */
  async render(url: string, nonce: string, reads: PageReads): Promise<RenderedPage | 'unavailable' | null> {
    const learned = this.#learned
    if (!learned) return null
    const { pathname, search } = splitUrl(url)
    if (!directPath(pathname) || url.includes('#')) return null
    const { content, development } = this.options
    try {
      // What pages/cms/+data.ts reads, page and site, in the same one call.
      const resolved = await content.pageOf(pathname, search, reads)
      if (resolved.kind !== 'page' || resolved.status !== 200) return null
      if (development) checkReads(resolved.page, reads)
      const document = learned.document(this.#pageContext(learned, url, resolved.page, resolved.site, nonce))
      if ('unsupported' in document) throw new Error('unreachable: the page was learned with a whole document')
      const [before, middle, after] = document.pieces
      const injected = before + learned.headInjection.join(nonce) + middle + learned.bodyInjection.join(nonce) + after
      return this.#answer(learned, url, injected, nonce, reads)
    } catch (error) {
      if (isDatabaseUnavailable(error)) return 'unavailable'
      // A field the path does not give: from now on every page goes through Vike.
      if (error instanceof RefusedField) this.#refuse(`the page reads ${error.message}`)
      // Vike renders it again and answers the error as it does for every page.
      return null
    }
  }

  #answer(learned: Learned, url: string, html: string, nonce: string, reads: PageReads): RenderedPage {
    const { config } = learned
    const keepable = config.pageCache !== false
    const query = keepable ? (config.pageQuery ?? []) : null
    const keepAs = query !== null && keyWith(new URL(url, 'http://localhost'), query) === url ? url : null
    const headers: Record<string, string> = { ...learned.headers, ...config.pageHeaders }
    if (!keepable) headers['cache-control'] = 'no-store'
    headers['content-security-policy'] = this.options.policy(nonce)
    if (carriesSpeculationRules(config)) Object.assign(headers, SPECULATION_RULES_HEADER)
    return { status: 200, headers, body: Buffer.from(html), keepAs, query, tags: reads.tags }
  }

  /**
   * The page's pageContext on this path: the fields Vike and our hooks set for it, the settings
   * its `+data` gives useConfig(); reading any other field throws RefusedField.
   */
  #pageContext(
    learned: Pick<Learned, 'pageId' | 'Page' | 'config'>,
    url: string,
    data: PageData,
    site: unknown,
    nonce: string,
  ) {
    return pageContextOf({
      pageId: learned.pageId,
      Page: learned.Page,
      config: learned.config,
      urlOriginal: url,
      urlPathname: splitUrl(url).pathname,
      data,
      site,
      publicSettings: this.options.content.publicSettings,
      content: this.options.content,
      cspNonce: nonce,
      isClientSide: false,
      _configViaHook: pageSettings(data),
    }) as unknown as PageContextServer
  }

  #refuse(why: string): void {
    this.#refused = true
    this.#learned = null
    this.options.warn(`pages go through Vike's renderPage only: ${why} (docs/decisions/037-one-document.md)`)
  }
}

/** Whether a path may be answered here: the catch-all's, plain, not another page's. */
function directPath(pathname: string): boolean {
  if (!PLAIN_PATH.test(pathname) || pathname.endsWith('.pageContext.json') || isAdminPath(pathname)) return false
  return !OTHER_PAGES.some((other) => pathname === other || pathname.startsWith(`${other}/`))
}

/** A request URL's path and its query string ('?…' or ''), as Vike's pageContext has them. */
function splitUrl(url: string): { pathname: string; search: string } {
  const query = url.indexOf('?')
  return query < 0 ? { pathname: url, search: '' } : { pathname: url.slice(0, query), search: url.slice(query) }
}

/**
 * What Vike added to the document to make its HTML: one piece after `<head>` and one before
 * `</body>`, each split where the rendering's nonce goes; null when Vike's HTML is anything else.
 */
function injections([before, middle, after]: readonly [string, string, string], vike: string, nonce: string) {
  if (!vike.startsWith(before) || !vike.endsWith(after) || middle.includes(nonce)) return null
  const injected = vike.slice(before.length, vike.length - after.length)
  const at = injected.indexOf(middle)
  if (at < 0) return null
  return {
    headInjection: injected.slice(0, at).split(nonce),
    bodyInjection: injected.slice(at + middle.length).split(nonce),
  }
}
