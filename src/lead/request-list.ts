// The visitor's request list («В заявку», issue #44 item 2; docs/decisions/041-request-list.md):
// product ids and quantities only, kept in the cookie `vitrina_list` so that it works without
// JavaScript, survives a reload and holds no personal data. The same text travels in the list
// page's form as the hidden field `lines`. Written as `12x2.45x1`: lines joined by `.`, a product
// id and its quantity by `x` (cookie-safe characters only, at most 100 lines of ≤ 16 characters).

/** The list's bounds: what the cookie, the list's routes and the lead intake all keep to. */
export const REQUEST_LIST_LIMITS = { lines: 100, quantity: 9999 } as const

/** The quantity box of «В заявку» and of a line of the list: the same bounds as the cookie's. */
export const QUANTITY_INPUT = {
  type: 'number',
  name: 'quantity',
  inputMode: 'numeric',
  min: 1,
  max: REQUEST_LIST_LIMITS.quantity,
  required: true,
} as const

/** The cookie that holds the list (not HttpOnly: the header's counter reads it in the browser). */
export const REQUEST_LIST_COOKIE = 'vitrina_list'

/** A year: the list waits for the visitor like a shop's basket would. */
export const REQUEST_LIST_MAX_AGE = 365 * 24 * 60 * 60

export interface RequestLine {
  readonly productId: number
  readonly quantity: number
  /** The variant of the product asked for (docs/decisions/043-variants.md); absent: the product itself */
  readonly variantId?: number
}

/** Whether two lines are of the same product and variant (a list holds each once). */
export function sameLine(
  a: Pick<RequestLine, 'productId' | 'variantId'>,
  b: Pick<RequestLine, 'productId' | 'variantId'>,
) {
  return a.productId === b.productId && (a.variantId ?? 0) === (b.variantId ?? 0)
}

const lineKey = (line: Pick<RequestLine, 'productId' | 'variantId'>) =>
  line.variantId ? `${line.productId}v${line.variantId}` : String(line.productId)

export type RequestList = readonly RequestLine[]

// A line: the product's id, `v` and its variant's id when one was chosen, `x` and the quantity.
const LINE = /^([1-9]\d{0,11})(?:v([1-9]\d{0,9}))?x([1-9]\d{0,3})$/

/** A quantity within bounds: a whole number from 1 to 9,999, else null. */
export function validQuantity(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= REQUEST_LIST_LIMITS.quantity ? n : null
}

/** A product id: a positive safe integer (from a form's text or JSON), else null. */
export function validProductId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : null
}

/**
 * The list a text holds (the cookie, the form's field). Forgiving: a malformed line is dropped, a
 * product named twice keeps its first line, and the list stops at its limit.
 */
export function parseRequestList(text: string | null | undefined): RequestLine[] {
  const lines: RequestLine[] = []
  if (!text || text.length > 4096) return lines
  const seen = new Set<string>()
  for (const part of text.split('.')) {
    const match = LINE.exec(part)
    if (!match) continue
    const productId = Number(match[1])
    const variantId = match[2] ? Number(match[2]) : undefined
    const quantity = validQuantity(Number(match[3]))
    const key = lineKey({ productId, variantId })
    if (quantity === null || !Number.isSafeInteger(productId) || seen.has(key)) continue
    seen.add(key)
    lines.push(variantId ? { productId, variantId, quantity } : { productId, quantity })
    if (lines.length === REQUEST_LIST_LIMITS.lines) break
  }
  return lines
}

/** The list as the cookie and the hidden field write it: `12x2.45v7x1` (product 45's variant 7). */
export function formatRequestList(list: RequestList): string {
  return list.map((line) => `${lineKey(line)}x${line.quantity}`).join('.')
}

/** How many lines the list has: what the header's counter shows. */
export function requestListCount(list: RequestList): number {
  return list.length
}

export type ListChange =
  | { readonly action: 'add'; readonly productId: number; readonly variantId?: number; readonly quantity: number }
  | { readonly action: 'set'; readonly productId: number; readonly variantId?: number; readonly quantity: number }
  | { readonly action: 'remove'; readonly productId: number; readonly variantId?: number }

/**
 * The list after a change, or 'full' when a new line would pass the limit. Adding a product
 * already listed adds to its quantity, capped at 9,999; setting a product not listed adds it.
 */
export function changeRequestList(list: RequestList, change: ListChange): RequestLine[] | 'full' {
  const index = list.findIndex((line) => sameLine(line, change))
  if (change.action === 'remove') return list.filter((line) => !sameLine(line, change))
  const variant = change.variantId ? { variantId: change.variantId } : {}
  if (index === -1) {
    if (list.length >= REQUEST_LIST_LIMITS.lines) return 'full'
    return [...list, { productId: change.productId, ...variant, quantity: change.quantity }]
  }
  const old = list[index]
  const quantity =
    change.action === 'add' ? Math.min(old.quantity + change.quantity, REQUEST_LIST_LIMITS.quantity) : change.quantity
  return list.map((line, i) => (i === index ? { ...line, quantity } : line))
}

/** The list in a Cookie header (the server's reading; the browser passes document.cookie). */
export function requestListOfCookies(cookieHeader: string | null | undefined): RequestLine[] {
  if (!cookieHeader) return []
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === REQUEST_LIST_COOKIE) return parseRequestList(part.slice(eq + 1).trim())
  }
  return []
}

/** The Set-Cookie value that keeps `list` (an empty list clears the cookie). */
export function requestListCookie(list: RequestList, secure: boolean): string {
  const attributes = `Path=/; SameSite=Lax${secure ? '; Secure' : ''}`
  if (list.length === 0) return `${REQUEST_LIST_COOKIE}=; Max-Age=0; ${attributes}`
  return `${REQUEST_LIST_COOKIE}=${formatRequestList(list)}; Max-Age=${REQUEST_LIST_MAX_AGE}; ${attributes}`
}
