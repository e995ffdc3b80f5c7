// The catalogue's pages without Vike's renderPage() (docs/decisions/036-direct-render.md). A page
// that declares `directRender` (pages/cms) is rendered by Vike first; from that rendering the server
// keeps the page's components, its settings and what Vike put around the HTML (the stylesheet and
// script tags), after checking that its own rendering of the same page gives the same bytes. Later
// answers of that page whose data resolve to a 200 are rendered here: the page's data read, its
// `+Layout`, `+Page` and `+Head` rendered with React as vike-react renders them, in vike-react's
// document. Everything else (redirects, 404/410, other pages, errors, a refused lead's form, the
// client router's pageContext.json) still goes through Vike.
import { createElement, StrictMode, type ComponentType, type ReactNode } from 'react'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import type { PageContextServer } from 'vike/types'
import { VikeReactProviderPageContext } from 'vike-react/usePageContext'
import { checkReads, type PageReads } from '../../src/site/page-tags'
import { isAdminPath, PATHS } from '../../src/site/paths'
import type { ContentSource, PageData } from '../../src/site/types'
import { isDatabaseUnavailable } from '../data/unavailable'
import { keyWith, type RenderedPage } from './page-cache'

type Component = ComponentType<{ children?: ReactNode }>

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
/** vike-react's settings this renderer reproduces; a page with any other goes through Vike. */
const UNSUPPORTED = [
  'Wrapper',
  'react',
  'stream',
  'favicon',
  'image',
  'viewport',
  'htmlAttributes',
  'bodyAttributes',
  'rootAttributes',
  'headHtmlBegin',
  'headHtmlEnd',
  'bodyHtmlBegin',
  'bodyHtmlEnd',
  'onBeforeRenderHtml',
  'onAfterRenderHtml',
] as const

interface Learned {
  readonly pageId: string
  readonly Page: Component
  readonly config: Vike.Config & Record<string, unknown>
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
   * if the page declares `directRender` and rendering it here gives exactly Vike's bytes.
   */
  learn(rendering: VikeRendering, url: string, html: string, nonce: string): void {
    if (this.#learned || this.#refused) return
    const config = (rendering.config ?? {}) as Vike.Config & Record<string, unknown>
    const { httpResponse, Page } = rendering
    if (config.directRender !== true || rendering.isClientSideNavigation || rendering.errorWhileRendering) return
    if (httpResponse.statusCode !== 200 || !Page || !directPath(splitUrl(url).pathname)) return
    const unsupported: string[] = UNSUPPORTED.filter((name) => !isEmpty(config[name]))
    // vike-react's Loading is set by default; only its `layout` wraps the page (in <Suspense>).
    if ((config.Loading as { layout?: unknown } | undefined)?.layout) unsupported.push('Loading.layout')
    if (unsupported.length > 0) return this.#refuse(`the page sets ${unsupported.join(', ')}`)
    const headers = Object.fromEntries(httpResponse.headers.map(([name, value]) => [name.toLowerCase(), value]))
    if (!headers['content-type']?.startsWith('text/html')) return
    const candidate = { pageId: rendering.pageId ?? '', Page: Page as Component, config, headers }
    const page = rendering.data as PageData
    const ours = documentHtml(candidate, this.#pageContext(candidate, url, page, rendering.site, nonce))
    const parts = injections(ours, html, nonce)
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
      const resolved = await content.resolvePage(pathname, search, reads)
      if (resolved.kind !== 'page' || resolved.status !== 200) return null
      const site = await content.getSite(pathname)
      if (development) checkReads(resolved.page, reads)
      const [before, middle, after] = documentHtml(learned, this.#pageContext(learned, url, resolved.page, site, nonce))
      const injected = before + learned.headInjection.join(nonce) + middle + learned.bodyInjection.join(nonce) + after
      return this.#answer(learned, url, injected, nonce, reads)
    } catch (error) {
      if (isDatabaseUnavailable(error)) return 'unavailable'
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
    return { status: 200, headers, body: Buffer.from(html), keepAs, query, tags: reads.tags }
  }

  /** What the page's components read of pageContext: the fields Vike and our hooks would set. */
  #pageContext(
    learned: Omit<Learned, 'headInjection' | 'bodyInjection'>,
    url: string,
    data: PageData,
    site: unknown,
    nonce: string,
  ) {
    return {
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
      get urlParsed(): never {
        throw new Error('A page rendered without Vike reads its query parameters from its data (pageQuery)')
      },
    } as unknown as PageContextServer
  }

  #refuse(why: string): void {
    this.#refused = true
    this.options.warn(`pages go through Vike's renderPage only: ${why} (docs/decisions/036-direct-render.md)`)
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

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.every((item) => item == null))
}

/** Vike's own escaping of `escapeInject` values (vike/dist/utils/escapeHtml.js). */
function escapeInjected(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

function strict(config: Vike.Config & Record<string, unknown>, element: ReactNode): ReactNode {
  return config.reactStrictMode === false ? element : createElement(StrictMode, null, element)
}

/** A document in three pieces: up to `<head>`, from there up to `</body>`, and the rest. */
type Document = readonly [string, string, string]

/** vike-react's onRenderHtml for the settings above: the document before Vike injects its tags. */
function documentHtml(learned: Pick<Learned, 'Page' | 'config'>, pageContext: PageContextServer): Document {
  const { config } = learned
  const provide = (children: ReactNode) => createElement(VikeReactProviderPageContext, { pageContext, children })
  let page: ReactNode = createElement(learned.Page)
  for (const Layout of (config.Layout ?? []) as Component[]) page = createElement(Layout, null, page)
  const body = renderToString(strict(config, provide(page)))
  const data = pageContext.data as PageData
  const title = data.meta.title ?? (config.title as string | undefined)
  const description = data.meta.description || (config.description as string | undefined)
  const headsHtml = ((config.Head ?? []) as (Component | null)[])
    .filter((Head): Head is Component => Head != null)
    .map((Head) => renderToStaticMarkup(strict(config, provide(createElement(Head)))))
    .join('\n')
  const titleTags = title
    ? `<title>${escapeInjected(title)}</title><meta property="og:title" content="${escapeInjected(title)}" />`
    : ''
  const descriptionTags = description
    ? `<meta name="description" content="${escapeInjected(description)}" /><meta property="og:description" content="${escapeInjected(description)}" />`
    : ''
  const viewport = '<meta name="viewport" content="width=device-width,initial-scale=1">'
  const headHtml = `\n    ${titleTags}\n    ${viewport}\n    ${headsHtml}\n    \n    ${descriptionTags}\n    \n  `
  const lang = config.lang === undefined ? 'en' : config.lang
  const htmlAttributes = lang ? ` lang="${String(lang).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"` : ''
  return [
    `<!DOCTYPE html>\n    <html${htmlAttributes}>\n      <head>`,
    `\n        <meta charset="UTF-8" />\n        \n        ${headHtml}\n        \n      </head>\n      <body>\n        \n        <div id="root">${body}</div>\n        \n      `,
    `</body>\n    </html>`,
  ]
}

/**
 * What Vike added to our document to make its HTML: one piece after `<head>` and one before
 * `</body>`, each split where the rendering's nonce goes; null when Vike's HTML is anything else.
 */
function injections([before, middle, after]: Document, vike: string, nonce: string) {
  if (!vike.startsWith(before) || !vike.endsWith(after) || middle.includes(nonce)) return null
  const injected = vike.slice(before.length, vike.length - after.length)
  const at = injected.indexOf(middle)
  if (at < 0) return null
  return {
    headInjection: injected.slice(0, at).split(nonce),
    bodyInjection: injected.slice(at + middle.length).split(nonce),
  }
}
