// The one HTML document of every page (docs/decisions/037-one-document.md). Vike calls it through
// +onRenderHtml.ts; the server's direct path (server/site/direct-render.ts) calls the same function,
// which Vike's pageContext carries as the `document` setting (+config.ts), so the two agree by
// construction. It is vike-react's document for the settings this site uses, in vike-react's order
// without its template's whitespace (vike-react/dist/integration/onRenderHtml.js, 0.6.30); a page
// with any other setting gets vike-react's own onRenderHtml, and the direct path leaves it to Vike.
import { createElement, isValidElement, StrictMode, type ComponentType, type ReactNode } from 'react'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import { VikeReactProviderPageContext } from 'vike-react/usePageContext'
import type { PageContextServer } from 'vike/types'

/** vike-react's settings this document does not make: a page that sets one is rendered by vike-react. */
export const UNSUPPORTED_SETTINGS = [
  'Wrapper',
  'react',
  'stream',
  'streamIsRequired',
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

/** A document in three pieces: up to `<head>`, from there up to `</body>`, and the rest. */
export type DocumentPieces = readonly [string, string, string]

/** The page's document, or the settings it sets that this document does not make. */
export type PageDocument = { readonly pieces: DocumentPieces } | { readonly unsupported: readonly string[] }

type Component = ComponentType<{ children?: ReactNode }>
type Settings = Record<string, unknown>
/** What the document reads of pageContext: Vike's, or the direct path's for the same page. */
type DocumentContext = Pick<PageContextServer, 'Page' | 'config'> & { _configViaHook?: Settings }

/** The settings of `config` this document does not make (empty when it makes the whole page). */
export function unsupportedSettings(config: object): string[] {
  const settings = config as Settings
  const found: string[] = UNSUPPORTED_SETTINGS.filter((name) => !isEmpty(settings[name]))
  // vike-react's Loading is set by default; only its `layout` wraps the page (in <Suspense>).
  if ((settings.Loading as { layout?: unknown } | undefined)?.layout) found.push('Loading.layout')
  return found
}

/**
 * The page's HTML document before Vike adds its stylesheet and script tags: the page in its
 * `+Layout`s rendered with `renderToString`, each `+Head` with `renderToStaticMarkup`, the title,
 * description and language from the page's settings (a value set by `useConfig()` first).
 */
export function pageDocument(pageContext: DocumentContext): PageDocument {
  const config = pageContext.config as Settings
  const unsupported = unsupportedSettings(config)
  if (unsupported.length > 0) return { unsupported }
  const strict = (element: ReactNode) =>
    config.reactStrictMode === false ? element : createElement(StrictMode, null, element)
  const provide = (children: ReactNode) =>
    createElement(VikeReactProviderPageContext, { pageContext: pageContext as PageContextServer, children })
  let body = ''
  if (pageContext.Page) {
    let page: ReactNode = createElement(pageContext.Page as Component)
    for (const Layout of (config.Layout ?? []) as Component[]) page = createElement(Layout, null, page)
    body = renderToString(strict(provide(page)))
  }
  // After the body: a component's useConfig() may have set a head value meanwhile.
  const title = headSetting(pageContext, 'title')
  const description = headSetting(pageContext, 'description')
  const heads = [...((config.Head ?? []) as unknown[]), ...((pageContext._configViaHook?.Head ?? []) as unknown[])]
  const headsHtml = heads
    .filter((Head) => Head != null)
    .map((Head) =>
      renderToStaticMarkup(strict(isValidElement(Head) ? Head : provide(createElement(Head as Component)))),
    )
    .join('')
  const titleTags = title
    ? `<title>${escape(String(title))}</title><meta property="og:title" content="${escape(String(title))}" />`
    : ''
  const descriptionTags = description
    ? `<meta name="description" content="${escape(String(description))}" /><meta property="og:description" content="${escape(String(description))}" />`
    : ''
  const viewport = '<meta name="viewport" content="width=device-width,initial-scale=1">'
  // vike-react's order of the head's parts, without the whitespace of its template (45 bytes gzip
  // on the benchmark page, docs/decisions/045-one-call-and-light-cards.md).
  const headHtml = `${titleTags}${viewport}${headsHtml}${descriptionTags}`
  // vike-react's default language is English; null says none.
  const langSetting = headSetting(pageContext, 'lang')
  const lang = langSetting === undefined ? 'en' : langSetting
  const htmlAttributes = lang === null || lang === false ? '' : ` lang="${attribute(String(lang))}"`
  return {
    pieces: [
      `<!DOCTYPE html><html${htmlAttributes}><head>`,
      `<meta charset="UTF-8" />${headHtml}</head><body><div id="root">${body}</div>`,
      `</body></html>`,
    ],
  }
}

/** A setting that is not cumulative, as vike-react reads it: useConfig()'s value, else the page's (called if a function). */
function headSetting(pageContext: DocumentContext, name: string): unknown {
  const fromHook = pageContext._configViaHook?.[name]
  if (fromHook !== undefined) return fromHook
  const value = (pageContext.config as Settings)[name]
  return typeof value === 'function' ? (value as (context: unknown) => unknown)(pageContext) : value
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.every((item) => item == null))
}

/** Vike's escaping of `escapeInject` values (vike/dist/utils/escapeHtml.js). */
function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

/** vike-react's escaping of tag attributes (vike-react/dist/utils/getTagAttributesString.js). */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
}
