import type { Lead } from './lead'
import { LEAD_ENDPOINT } from './lead-form-state'
import type { LeadSource } from './lead-source'
import type { RequestLine } from './request-list'

/** What became of a submission, as the form needs to know it. */
type SubmitOutcome =
  /** 201: stored now; the only case that counts as a Metrika goal */
  | { kind: 'created'; id: number }
  /** 200: this form's idempotency key was seen before; the first lead stands */
  | { kind: 'repeated'; id: number }
  /** 202: the database was away; the server journaled the lead and stores it when it is back */
  | { kind: 'accepted' }
  /** 400 with field messages: shown under the fields */
  | { kind: 'invalid'; errors: Record<string, string> }
  /** 422: this form's key was used for a lead with other values; the form needs a new key */
  | { kind: 'reused' }
  /** Network down, 5xx, 429, anything else: keep the values, offer the phone */
  | { kind: 'failed'; status: number | null }

type SubmitExtras = {
  idempotencyKey: string
  /** The honeypot's value: empty for people */
  website: string
  /** When the form was shown, in ms since the epoch */
  formStartedAt: number
  /** The page the form is sent from and the visit's advertising tags */
  source?: LeadSource
  /** What the lead asks for: product ids and quantities (never prices) */
  lines?: readonly RequestLine[]
  /** The intake's address with the form's flags (the request list's `?spisok=1`) */
  endpoint?: string
}

/**
 * Sends a validated lead to `POST /api/feedback` as JSON, with the form's idempotency key in the
 * `Idempotency-Key` header, so a retry after a lost answer stores nothing twice.
 */
export async function submitLead(
  lead: Lead,
  extras: SubmitExtras,
  fetchImpl: typeof fetch = fetch,
): Promise<SubmitOutcome> {
  let response: Response
  try {
    response = await fetchImpl(extras.endpoint ?? LEAD_ENDPOINT, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': extras.idempotencyKey,
      },
      body: JSON.stringify({
        ...lead,
        ...extras.source,
        website: extras.website,
        formStartedAt: extras.formStartedAt,
        ...(extras.lines && extras.lines.length > 0 ? { lines: extras.lines } : {}),
      }),
    })
  } catch {
    return { kind: 'failed', status: null }
  }
  const body: unknown = await response.json().catch(() => null)
  if (response.status === 202) return { kind: 'accepted' }
  if (response.status === 201 || response.status === 200) {
    const id = (body as { data?: { id?: unknown } } | null)?.data?.id
    return typeof id === 'number'
      ? { kind: response.status === 201 ? 'created' : 'repeated', id }
      : { kind: 'failed', status: response.status }
  }
  if (response.status === 422) return { kind: 'reused' }
  const errors = (body as { errors?: unknown } | null)?.errors
  if (response.status === 400 && typeof errors === 'object' && errors !== null && Object.keys(errors).length > 0) {
    return { kind: 'invalid', errors: errors as Record<string, string> }
  }
  return { kind: 'failed', status: response.status }
}

/**
 * A new idempotency key: a UUID where the browser offers one (secure contexts only), else 128
 * random bits in hex.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto
  if (typeof c?.randomUUID === 'function') return c.randomUUID()
  if (typeof c?.getRandomValues === 'function') {
    return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
  }
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}-${Math.random().toString(16).slice(2)}`
}

/** Fires the Metrika goal `lead` when a counter is configured and loaded (research §A5). */
export function reachLeadGoal(metrikaId: number | null): void {
  if (metrikaId === null || typeof window === 'undefined') return
  const ym = (window as { ym?: (...args: unknown[]) => void }).ym
  try {
    ym?.(metrikaId, 'reachGoal', 'lead')
  } catch {
    // An analytics failure must never look like a failed lead.
  }
}
