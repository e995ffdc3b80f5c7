// The rules a lead request is judged by, apart from the schema: what is stored of it (trimmed),
// when it is spam, which idempotency key it carries (and the hash of the request it is bound to)
// and where it was sent from.
import { createHash } from 'node:crypto'
import type { Lead } from '../../../src/lead/lead'
import { IDEMPOTENCY_KEY_PATTERN, type LeadRequest } from '../../../src/lead/lead-schema'
import { messagesRu } from '../../../src/validation/messages-ru'
import { normalizePath, toggleTrailingSlash } from '../../../src/site/url'
import type { ContentService } from '../../site/content-service'
import type { LeadOrigin } from '../store/lead-store'

export const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN)

/** The lead as stored: the visitor's text without the blanks around it. */
export function leadOf(body: LeadRequest): Lead {
  return { username: body.username.trim(), phone: body.phone.trim(), email: body.email.trim(), consent: true }
}

/**
 * A filled honeypot, or a form sent sooner than `minFillSeconds` after it was shown. A missing
 * fill time (API clients) is not spam; a negative one is a browser clock running ahead of ours,
 * not a bot.
 */
export function isSpam(body: LeadRequest, minFillSeconds: number, now = Date.now()): boolean {
  const honeypot = (body.website ?? '').trim() !== ''
  const elapsed = body.formStartedAt === undefined ? Infinity : now - body.formStartedAt
  return honeypot || (elapsed >= 0 && elapsed < minFillSeconds * 1000)
}

/** The header's key, else the no-JS form's field; a malformed header is reported as a field error. */
export function idempotencyKeyOf(
  header: string | string[] | undefined,
  body: Partial<LeadRequest> | undefined,
): { key: string | null; error?: Record<string, string> } {
  if (header !== undefined && (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header))) {
    return { key: null, error: { 'Idempotency-Key': messagesRu.any.invalid } }
  }
  return { key: header ?? body?.idempotencyKey ?? null }
}

/** The value with every object's keys in order, so that equal requests serialise alike. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(entries.map(([key, item]) => [key, canonical(item)]))
}

/**
 * The hash an idempotency key is bound to: SHA-256 of the request as validated, in canonical
 * JSON, without the key itself. A retry of the same form gives the same hash; another lead does not.
 */
export function requestHash(body: LeadRequest): string {
  const { idempotencyKey: _key, ...request } = body
  return createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('hex')
}

/** Path and query of a same-site URL or path, or null. */
function pathAndQuery(url: string | undefined): string | null {
  if (!url) return null
  try {
    const parsed = new URL(url, 'http://localhost')
    return `${parsed.pathname}${parsed.search}`.slice(0, 2000)
  } catch {
    return null
  }
}

/** Where the visitor was when sending: the page the form names, else the Referer, else the root. */
export function sourcePath(referer: string | undefined, body: LeadRequest): string {
  return pathAndQuery(body.sourceUrl) ?? pathAndQuery(referer) ?? '/'
}

/** The product whose page the lead was sent from, read by its URL (never from the client). */
export async function productAt(content: ContentService, sourceUrl: string): Promise<LeadOrigin['product']> {
  const path = normalizePath(new URL(sourceUrl, 'http://localhost').pathname)
  const toggled = toggleTrailingSlash(path)
  const entry =
    (await content.entryAt(path, 'latest')) ?? (toggled ? await content.entryAt(toggled, 'latest') : undefined)
  return entry?.typeId === 'product' && entry.state === 'public' ? { id: entry.id, title: entry.title } : null
}
