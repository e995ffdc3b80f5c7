// A page sees only the query parameters it declares (its `pageQuery`, docs/decisions/012-page-cache.md).
// The page cache keys a page by its path and those parameters, and renders a request from that key:
// a page that read any other parameter would be rendered without it, silently. So every rendering
// hands the page the declared parameters alone, whatever the URL carried (the first request of a
// path, the cache off, a signed-in owner), and in development and tests reading an undeclared one
// through `urlParsed.search`/`searchAll` throws, naming the page and the parameter.
import type { PageContextServer } from 'vike/types'
import { isDeclaredName } from '../src/site/query-names'

/**
 * `url` with only the query parameters named in `names`, each spelled as it came and in its place
 * (the hash, if any, kept); `url` itself when it has no other.
 */
export function withDeclaredQuery(url: string, names: readonly string[]): string {
  const at = url.indexOf('?')
  if (at === -1) return url
  const hash = url.indexOf('#')
  if (hash !== -1 && hash < at) return url
  const end = hash === -1 ? url.length : hash
  const pairs = url.slice(at + 1, end).split('&')
  const kept = pairs.filter((pair) => pair !== '' && isDeclaredName(names, nameOf(pair)))
  if (kept.length === pairs.length) return url
  return url.slice(0, at) + (kept.length > 0 ? `?${kept.join('&')}` : '') + url.slice(end)
}

/** A `name=value` pair's name as URLSearchParams decodes it. */
function nameOf(pair: string): string {
  const at = pair.indexOf('=')
  const raw = (at === -1 ? pair : pair.slice(0, at)).replace(/\+/g, ' ')
  if (!raw.includes('%')) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return new URLSearchParams(pair).keys().next().value ?? ''
  }
}

/** Names any object answers (toString, hasOwnProperty, …) and those serialisers and awaits probe. */
function isObjectMember(name: string): boolean {
  return name in Object.prototype || name === 'toJSON' || name === 'then'
}

/** The error a page meets in development when it reads a parameter it did not declare. */
export class UndeclaredQueryError extends Error {
  constructor(pageId: string, name: string, names: readonly string[]) {
    super(
      `${pageId} reads the query parameter "${name}", which its pageQuery does not declare ` +
        `(${names.length > 0 ? names.join(', ') : 'none'}). Add it to pageQuery in the page's +config.ts: ` +
        'the page cache keys a page by those parameters only, and in production the page never sees ' +
        'any other (docs/decisions/012-page-cache.md).',
    )
    this.name = 'UndeclaredQueryError'
  }
}

/**
 * A view of `urlParsed.search` or `searchAll` that throws `UndeclaredQueryError` when a name not in
 * `names` is read (`get`, `in`, `Object.hasOwn`), present in the URL or not: a page learns of its
 * mistake from the first test that renders it, not from the one URL that carries the parameter.
 */
export function strictQuery<T extends object>(record: T, names: readonly string[], pageId: string): T {
  const check = (name: string | symbol) => {
    if (typeof name === 'string' && !isDeclaredName(names, name) && !isObjectMember(name)) {
      throw new UndeclaredQueryError(pageId, name, names)
    }
  }
  return new Proxy(record, {
    get(target, name, receiver) {
      check(name)
      return Reflect.get(target, name, receiver) as unknown
    },
    has(target, name) {
      check(name)
      return Reflect.has(target, name)
    },
    getOwnPropertyDescriptor(target, name) {
      check(name)
      return Reflect.getOwnPropertyDescriptor(target, name)
    },
  })
}

type UrlParsed = PageContextServer['urlParsed']
type PageContextWithLogicalUrl = PageContextServer & { urlLogical?: string }

/** Vike's own getter of `pageContext.urlParsed` (one shared function), which the strict getter wraps */
let vikeUrlParsed: ((this: PageContextServer) => UrlParsed) | undefined

/**
 * Vike's `urlParsed` with `search` and `searchAll` that throw on an undeclared name. One shared
 * function, not a closure per rendering: an own getter's accessor pair lives in the old generation
 * and would keep a closure's rendering alive through every scavenge (docs/decisions/018).
 */
function strictUrlParsed(this: PageContextServer): UrlParsed {
  const parsed = vikeUrlParsed!.call(this)
  const names = this.config.pageQuery ?? []
  const pageId = this.pageId ?? 'A page'
  parsed.search = strictQuery(parsed.search, names, pageId)
  parsed.searchAll = strictQuery(parsed.searchAll, names, pageId)
  return parsed
}

/**
 * Limits what `pageContext` tells the page of the query to the parameters its `pageQuery` declares,
 * through `urlLogical`, from which Vike computes `urlParsed` (`search`, `searchAll`,
 * `searchOriginal`, `href` alike); with `strict`, a read of any other name throws. Called once per
 * rendering, after routing (the page's config is known), before any of the page's hooks. String
 * work on the URL only: reading `urlParsed` would parse it (about 10 µs), and a URL without a query
 * costs one indexOf.
 */
export function limitQuery(pageContext: PageContextServer, strict: boolean): void {
  // The URL the page was routed by: the request's, or a `throw render(url)` rewrite's (read off the
  // object, not through Vike's public proxy, which warns of internal properties).
  const rewrite = Object.getOwnPropertyDescriptor(pageContext, '_urlRewrite')?.value as string | null | undefined
  // eslint-disable-next-line no-restricted-syntax -- the one reader of the whole URL, which it limits
  const url = rewrite ?? pageContext.urlOriginal
  const logical = withDeclaredQuery(url, pageContext.config.pageQuery ?? [])
  if (logical !== url) (pageContext as PageContextWithLogicalUrl).urlLogical = logical
  if (!strict) return
  const own = Object.getOwnPropertyDescriptor(pageContext, 'urlParsed')
  // eslint-disable-next-line @typescript-eslint/unbound-method -- Vike's getter, called with pageContext as this
  if (own?.get && own.get !== strictUrlParsed) vikeUrlParsed = own.get as typeof vikeUrlParsed
  if (!vikeUrlParsed) return
  Object.defineProperty(pageContext, 'urlParsed', { get: strictUrlParsed, enumerable: true, configurable: true })
}
