// What the visitor typed into the lead dialog survives closing the dialog, a reload and a
// navigation in the same tab: kept in sessionStorage (this tab only, gone with it) until the lead
// is accepted. The idempotency key travels with it, so a resend after a lost answer is one lead.
import type { LeadFormValues } from './lead-form-state'
import { IDEMPOTENCY_KEY_PATTERN } from './lead-schema'

interface LeadDraft {
  values: LeadFormValues
  idempotencyKey: string
  startedAt: number
}

const STORAGE_KEY = 'vitrina:lead-draft'
const MAX_TEXT = 1000
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN)

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null // storage disabled by the browser's privacy settings
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, MAX_TEXT) : null)

/** The saved draft, or null when there is none or it is not one of ours. */
export function loadLeadDraft(): LeadDraft | null {
  try {
    const raw = storage()?.getItem(STORAGE_KEY)
    if (!raw) return null
    const data: unknown = JSON.parse(raw)
    if (typeof data !== 'object' || data === null) return null
    const { values, idempotencyKey, startedAt } = data as Record<string, unknown>
    if (typeof values !== 'object' || values === null) return null
    if (typeof idempotencyKey !== 'string' || !KEY.test(idempotencyKey) || typeof startedAt !== 'number') return null
    const v = values as Record<string, unknown>
    return {
      values: { username: text(v.username), phone: text(v.phone), email: text(v.email), consent: v.consent === true },
      idempotencyKey,
      startedAt,
    }
  } catch {
    return null
  }
}

/** Saves the draft; an empty form leaves nothing behind. */
export function saveLeadDraft(draft: LeadDraft): void {
  const { username, phone, email, consent } = draft.values
  try {
    if (!username && !phone && !email && !consent) storage()?.removeItem(STORAGE_KEY)
    else storage()?.setItem(STORAGE_KEY, JSON.stringify(draft))
  } catch {
    // Storage full or refused: the form still works, only the draft is not kept.
  }
}

export function clearLeadDraft(): void {
  try {
    storage()?.removeItem(STORAGE_KEY)
  } catch {
    // nothing to clear
  }
}
