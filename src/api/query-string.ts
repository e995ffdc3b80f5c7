export { stringifyQuery, parseQuery, encodeQueryComponent }
export type { ParsedQuery, ParsedQueryValue, ParseQueryOptions }

/**
 * Query strings in bracket form (`a[b][c]=1`, `a[0]=x`), shared by the browser client and the server.
 *
 * Fastify 5 parses `req.query` with fast-querystring, which keeps `a[b][c]` as one flat key, so the
 * server reads `req.raw.url` with `parseQuery()` to get the nested tree back.
 *
 * Rules (both directions):
 * - `undefined` is skipped; `null` is sent as an empty value (`a=`) and read back as `''`.
 * - Numbers, booleans and bigints are sent as their string form; a `Date` as its ISO string.
 *   Everything is read back as a string: the round trip is exact for trees of strings.
 * - Arrays use indices (`a[0]=x&a[1]=y`); empty arrays and empty objects send nothing.
 * - A top-level parameter named `query` is sent as one JSON string (`JSON.stringify`) and read back
 *   as that JSON text; the server parses and validates it.
 * - Letters, digits, brackets and `- _ . ~ : , / @ $ ! ' ( ) *` stay readable; everything that
 *   could break a URL or its parsing (`& # + % = ? ;`, space, `"`, `< > { } | \ ^` and the
 *   backtick, control and non-ASCII characters such as Cyrillic) is percent-encoded as UTF-8.
 * - A literal `[` or `]` inside a key name is not escaped, so it reads back as structure:
 *   `{ 'a[b]': 1 }` and `{ a: { b: 1 } }` send the same string.
 */

type ParsedQueryValue = string | ParsedQueryValue[] | ParsedQuery
type ParsedQuery = { [key: string]: ParsedQueryValue }

interface ParseQueryOptions {
  /** Bracket levels read as structure; deeper brackets stay in the last key (qs's rule). Default 10. */
  readonly depth?: number
  /** Pairs read; the rest are ignored. Default 1000. */
  readonly parameterLimit?: number
}

// Characters encodeURIComponent escapes that are harmless inside a query component: RFC 3986
// allows `: / @ $ ,` there, and the WHATWG URL parser leaves `[` `]` as they are in a query.
const READABLE = /%(5B|5D|3A|2F|40|24|2C)/g
const READABLE_CHARS: Record<string, string> = {
  '%5B': '[',
  '%5D': ']',
  '%3A': ':',
  '%2F': '/',
  '%40': '@',
  '%24': '$',
  '%2C': ',',
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const INDEX = /^(?:0|[1-9]\d*)$/
const BRACKET_KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Percent-encodes one key or value, leaving brackets and a few other safe characters readable.
 *
 * @example
 * encodeQueryComponent('Дрель & ключ') // '%D0%94%D1%80%D0%B5%D0%BB%D1%8C%20%26%20%D0%BA%D0%BB%D1%8E%D1%87'
 * encodeQueryComponent('a[0]')         // 'a[0]'
 */
function encodeQueryComponent(text: string): string {
  // encodeURIComponent throws on a lone surrogate; send U+FFFD as TextEncoder would.
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD')).replace(
    READABLE,
    (escape) => READABLE_CHARS[escape],
  )
}

/**
 * Serialises parameters in bracket form, without the leading `?`.
 *
 * @example
 * stringifyQuery({ query: { where: { typeId: { in: ['index'] } } }, ttl: 120 })
 * // 'query=%7B%22where%22:%7B%22typeId%22:%7B%22in%22:[%22index%22]%7D%7D%7D&ttl=120'
 * stringifyQuery({ filter: { tags: ['a', 'b'] }, q: 'Дрель' })
 * // 'filter[tags][0]=a&filter[tags][1]=b&q=%D0%94%D1%80%D0%B5%D0%BB%D1%8C'
 */
function stringifyQuery(params: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (key === 'query' && typeof value !== 'string') {
      pairs.push(`query=${encodeQueryComponent(JSON.stringify(value) ?? '')}`)
      continue
    }
    appendPairs(pairs, encodeQueryComponent(key), value)
  }
  return pairs.join('&')
}

function appendPairs(pairs: string[], key: string, value: unknown): void {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return
  if (value === null) {
    pairs.push(`${key}=`)
  } else if (value instanceof Date) {
    pairs.push(`${key}=${Number.isNaN(value.getTime()) ? '' : value.toISOString()}`)
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => appendPairs(pairs, `${key}[${index}]`, item))
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      appendPairs(pairs, `${key}[${encodeQueryComponent(name)}]`, item)
    }
  } else {
    pairs.push(`${key}=${encodeQueryComponent(String(value))}`)
  }
}

/**
 * Parses a query string (with or without `?`, or a path or URL such as `req.raw.url`) into a
 * nested tree of strings.
 * Keys are decoded before their brackets are read, so `a%5Bb%5D=1` (as URLSearchParams sends it)
 * nests too. `+` is a space (form encoding); a malformed escape is kept as written.
 * Repeated keys collect into an array; `a[]=x` appends. Keys `__proto__`, `constructor` and
 * `prototype` are dropped.
 *
 * @example
 * parseQuery('?a[b][c]=1&list[0]=x&list[1]=y&q=%D0%94%D1%80%D0%B5%D0%BB%D1%8C')
 * // { a: { b: { c: '1' } }, list: ['x', 'y'], q: 'Дрель' }
 */
function parseQuery(search: string, options: ParseQueryOptions = {}): ParsedQuery {
  const { depth = 10, parameterLimit = 1000 } = options
  const root: Node = new Map()
  let text = search
  // A URL or path (`/api/x?a=1`, as in `req.raw.url`) has no '=' or '&' before its '?';
  // a bare query may hold a literal '?' in a value written by another client.
  const question = text.indexOf('?')
  if (question !== -1 && !/[=&]/.test(text.slice(0, question))) text = text.slice(question + 1)
  const hash = text.indexOf('#')
  if (hash !== -1) text = text.slice(0, hash)

  let count = 0
  for (const pair of text.split('&')) {
    if (pair === '') continue
    if (count++ >= parameterLimit) break
    const equals = pair.indexOf('=')
    const rawKey = equals === -1 ? pair : pair.slice(0, equals)
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1)
    const path = splitKey(decodeComponent(rawKey), depth)
    if (path === null) continue
    setPath(root, path, decodeComponent(rawValue))
  }
  return finish(root) as ParsedQuery
}

function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ')
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodeEscapeRun)
  }
}

/** Decodes a run of escapes one UTF-8 sequence (1–4 bytes) at a time; a broken byte stays as written. */
function decodeEscapeRun(run: string): string {
  const escapes = run.match(/%[0-9A-Fa-f]{2}/g) ?? []
  let result = ''
  let i = 0
  while (i < escapes.length) {
    let length = Math.min(4, escapes.length - i)
    let decoded: string | undefined
    while (length > 0 && decoded === undefined) {
      try {
        decoded = decodeURIComponent(escapes.slice(i, i + length).join(''))
      } catch {
        length -= 1
      }
    }
    result += decoded ?? escapes[i]
    i += Math.max(length, 1)
  }
  return result
}

/** `a[b][]` → ['a', 'b', ''], where '' means "append". Null drops the pair. */
function splitKey(key: string, depth: number): string[] | null {
  if (key === '') return null
  const match = BRACKET_KEY.exec(key)
  let path: string[]
  if (match === null || match[2] === '') {
    path = [key]
  } else {
    const segments = match[2].slice(1, -1).split('][')
    const kept = segments.slice(0, depth)
    path = [match[1], ...kept]
    if (segments.length > depth) {
      path.push(`[${segments.slice(depth).join('][')}]`)
    }
  }
  return path.some((segment) => UNSAFE_KEYS.has(segment)) ? null : path
}

// Containers are built as Maps (no prototype to pollute) and become arrays or objects at the end.
type Node = Map<string, Node | string | string[]>

function setPath(node: Node, path: readonly string[], value: string): void {
  let current = node
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] === '' ? nextIndex(current) : path[i]
    const existing = current.get(key)
    if (existing instanceof Map) {
      current = existing
      continue
    }
    // A plain value already sits here: keep it as item 0 of the new container.
    const child: Node = new Map()
    if (typeof existing === 'string') child.set('0', existing)
    if (Array.isArray(existing)) existing.forEach((item, index) => child.set(String(index), item))
    current.set(key, child)
    current = child
  }
  const last = path[path.length - 1]
  const key = last === '' ? nextIndex(current) : last
  const existing = current.get(key)
  if (existing === undefined) current.set(key, value)
  else if (existing instanceof Map) existing.set(nextIndex(existing), value)
  else if (Array.isArray(existing)) existing.push(value)
  else current.set(key, [existing, value])
}

function nextIndex(node: Node): string {
  let next = 0
  for (const key of node.keys()) {
    if (INDEX.test(key)) next = Math.max(next, Number(key) + 1)
  }
  return String(next)
}

function finish(value: Node | string | string[]): ParsedQueryValue {
  if (!(value instanceof Map)) return Array.isArray(value) ? [...value] : value
  const keys = [...value.keys()]
  if (keys.length > 0 && keys.every((key) => INDEX.test(key))) {
    // Indices become a dense array in index order (gaps close, as qs does).
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => finish(value.get(key) as Node | string | string[]))
  }
  const result: ParsedQuery = {}
  for (const [key, item] of value) result[key] = finish(item)
  return result
}
