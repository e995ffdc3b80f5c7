// What the direct path (direct-render.ts) does with each Vike and vike-react setting and hook a
// page may have, and with each pageContext field its components read: honoured, without effect on
// a 200 HTML-only answer, or refused (the page then goes through Vike). A setting or a field that is
// in none of the lists is refused too, never skipped: test/server/direct-settings.test.ts fails
// when pages/cms or renderer/ define one, so that it is decided here (docs/decisions/037-one-document.md).

/** Settings and hooks the direct path does what Vike does with. */
export const HONOURED = {
  Page: 'rendered by the document function',
  Layout: 'rendered by the document function',
  Head: 'rendered by the document function',
  title: 'the document function, from pageSettings() as +data gives it to useConfig()',
  description: 'the document function, from pageSettings() as +data gives it to useConfig()',
  lang: 'the document function',
  reactStrictMode: 'the document function',
  document: 'the document function itself (renderer/document.ts)',
  onRenderHtml: 'renderer/+onRenderHtml.ts calls the document function and nothing else',
  data: 'the same content.pageOf() call as pages/cms/+data.ts (page and site); any other status goes to Vike',
  onCreatePageContext: 'the same publicSettings as renderer/+onCreatePageContext.server.ts; the site is +data’s',
  siteInData: 'the site comes with the page from the one content.pageOf() call, as in +data',
  screenQuery: 'read by renderer/+Head.tsx and pages/cms/+Head.tsx, which the document function renders',
  route: "the catch-all '/*': only plain paths no other page routes",
  pageQuery: 'the page cache key and the page data',
  pageCache: 'the page cache',
  pageHeaders: 'the answer headers',
  speculationRules: 'the answer headers (Speculation-Rules), as server/site/vike-answer.ts sets them',
  directRender: 'this path',
} as const

/** Settings and hooks without effect on the server's 200 HTML of an HTML-only page. */
export const INERT = {
  onRenderClient: 'browser only, and public pages run no Vike client (clientHooks: false)',
  client: 'the browser entry: Vike’s tags, learned from its rendering',
  clientHooks: 'browser only',
  clientRouting: 'browser only',
  hydrationCanBeAborted: 'browser only',
  onBeforeRenderClient: 'browser only',
  onAfterRenderClient: 'browser only',
  passToClient: 'HTML-only pages serialise no pageContext',
  Loading: 'only Loading.layout wraps the page; the document function refuses it',
  disableUrlNormalization: 'the path answers plain paths only, which Vike would not normalise',
  ssr: 'a page without server rendering has no 200 of its own to learn',
  extends: 'the settings it brings are listed one by one',
  meta: 'declares settings; each is listed one by one',
  name: "an extension's name",
  require: "an extension's requirement",
  staticReplace: 'a build transform',
  isClientRuntimeLoaded: 'false for HTML-only pages; true (a pageContext serialised into the page) is refused',
} as const

/** Inert settings only with these values: any other is refused. */
const INERT_ONLY_AS: Readonly<Record<string, (value: unknown) => boolean>> = {
  isClientRuntimeLoaded: (value) => value === false,
}

/** Settings and hooks the direct path does not do: a page with one is rendered by Vike. */
export const REFUSED = {
  Wrapper: 'refused by the document function',
  react: 'refused by the document function',
  stream: 'refused by the document function',
  streamIsRequired: 'refused by the document function',
  favicon: 'refused by the document function',
  image: 'refused by the document function',
  viewport: 'refused by the document function',
  htmlAttributes: 'refused by the document function',
  bodyAttributes: 'refused by the document function',
  rootAttributes: 'refused by the document function',
  headHtmlBegin: 'refused by the document function',
  headHtmlEnd: 'refused by the document function',
  bodyHtmlBegin: 'refused by the document function',
  bodyHtmlEnd: 'refused by the document function',
  onBeforeRenderHtml: 'refused by the document function',
  onAfterRenderHtml: 'refused by the document function',
  onBeforeRender: 'a hook the path does not run',
  guard: 'a hook the path does not run',
  onData: 'a hook the path does not run',
  headersResponse: 'headers the path does not set',
  cacheControl: 'a header the path does not set',
} as const

/** Every setting the direct path has decided on. */
export const DIRECT_SETTINGS: ReadonlySet<string> = new Set([
  ...Object.keys(HONOURED),
  ...Object.keys(INERT),
  ...Object.keys(REFUSED),
])

/** The settings of a page's config the path does not render as Vike would: refused or unknown. */
export function refusedSettings(config: object): string[] {
  return Object.entries(config)
    .filter(([name, value]) => {
      if (isEmpty(value)) return false
      if (name in INERT_ONLY_AS) return !INERT_ONLY_AS[name](value)
      return !(name in HONOURED || name in INERT)
    })
    .map(([name]) => name)
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.every((item) => item == null))
}

/** A component read a pageContext field the direct path does not give. */
export class RefusedField extends Error {
  constructor(readonly field: string) {
    super(`pageContext.${field} is not given by the direct path`)
  }
}

/** Fields read by React and by tools that inspect any object: never the page's own. */
const INSPECTED = new Set(['then', 'toJSON', '$$typeof', 'constructor', 'valueOf', 'toString'])

/**
 * The pageContext the page's components get on the direct path: the given fields, and a
 * RefusedField thrown for any other (so the page goes through Vike instead of reading undefined).
 */
export function pageContextOf<T extends object>(fields: T): T {
  return new Proxy(fields, {
    get(target, name, receiver) {
      if (typeof name === 'symbol' || name in target || INSPECTED.has(name)) return Reflect.get(target, name, receiver)
      throw new RefusedField(name)
    },
  })
}
