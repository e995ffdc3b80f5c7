// A person's data on request (152-FZ arts. 14, 20, 21): everything the site keeps about one phone
// or e-mail, found, exported as a file, anonymised or deleted (docs/decisions/027-personal-data.md).
// What belongs to the person: the leads with that phone (any way it was typed) or e-mail, their
// delivery rows, the cookie choices made from the addresses those leads came from, and the lead
// journal's dead letters with that phone or e-mail. Each action goes to the audit log by lead ids
// and counts, never by the phone or e-mail itself.
import type { Db } from '../data/db'
import { HttpError } from '../http/http-error'
import type { JournaledLead } from '../leads/intake/intake'
import type { DeadLetter } from '../leads/intake/journal'
import {
  anonymiseLeads,
  deleteLeads,
  deliveriesOfLeads,
  findSubjectLeads,
  type SubjectKey,
} from '../leads/store/lead-privacy'
import { hashAddress } from './privacy-settings'

/** Leads one answer holds: a person with more is asked for again after a delete. */
export const SUBJECT_LEAD_LIMIT = 200
const MAX_TERM = 200

const digitsOf = (text: string) => text.replace(/\D/g, '')

/** The phone or e-mail the owner typed, as the search keys; 400 with a Russian message otherwise. */
export function subjectKey(term: unknown): SubjectKey {
  const text = typeof term === 'string' ? term.trim() : ''
  if (text === '' || text.length > MAX_TERM) {
    throw new HttpError(400, 'Введите телефон или e-mail человека', 'validation_failed', {
      q: 'Введите телефон или e-mail',
    })
  }
  if (text.includes('@')) {
    const email = text.toLowerCase()
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new HttpError(400, 'Это не похоже на e-mail', 'validation_failed', { q: 'Это не похоже на e-mail' })
    }
    return { email }
  }
  const digits = digitsOf(text)
  if (!/^[\d\s()+.-]+$/.test(text) || digits.length < 10 || digits.length > 15) {
    throw new HttpError(400, 'Это не похоже на телефон: нужно 10–15 цифр', 'validation_failed', {
      q: 'Это не похоже на телефон',
    })
  }
  if (digits.length === 10) return { phoneE164: `+7${digits}`, digits }
  if (digits.length === 11 && /^[78]/.test(digits))
    return { phoneE164: `+7${digits.slice(1)}`, digits: digits.slice(1) }
  return { phoneE164: `+${digits}`, digits }
}

function letterMatches(letter: DeadLetter<JournaledLead>, key: SubjectKey): boolean {
  const lead = letter.entry?.lead
  if (!lead) return false
  if ('email' in key)
    return (
      String(lead.email ?? '')
        .trim()
        .toLowerCase() === key.email
    )
  return digitsOf(String(lead.phone ?? '')).endsWith(key.digits)
}

interface JournalAccess {
  deadLetters(): DeadLetter<JournaledLead>[]
  pruneDeadLetters(drop: (letter: DeadLetter<JournaledLead>) => boolean): Promise<number>
}

export function createSubjectRequests(db: Db, journal: JournalAccess) {
  async function ipHashesOf(leads: ReadonlyArray<{ consentIp: string | null }>): Promise<string[]> {
    const ips = [...new Set(leads.map((lead) => lead.consentIp).filter((ip): ip is string => !!ip))]
    return Promise.all(ips.map((ip) => hashAddress(db, ip)))
  }

  async function cookieChoicesOf(hashes: readonly string[]) {
    if (hashes.length === 0) return []
    return db
      .selectFrom('cookieChoice')
      .select(['id', 'createdAt', 'userAgent', 'textVersion', 'analytics'])
      .where('ipHash', 'in', hashes)
      .orderBy('id')
      .limit(1000)
      .execute()
  }

  /** Everything kept about the person: what the screen shows and the export file holds. */
  async function find(key: SubjectKey) {
    const leads = await findSubjectLeads(db, key, SUBJECT_LEAD_LIMIT)
    const ids = leads.map((lead) => lead.id)
    const [deliveries, cookieChoices] = await Promise.all([
      deliveriesOfLeads(db, ids),
      ipHashesOf(leads).then(cookieChoicesOf),
    ])
    const deadLetters = journal.deadLetters().filter((letter) => letterMatches(letter, key))
    return { leads, deliveries, cookieChoices, deadLetters, more: leads.length === SUBJECT_LEAD_LIMIT }
  }

  /** Deletes (or anonymises) everything `find` finds; returns the counts for the answer and audit. */
  async function erase(key: SubjectKey, mode: 'delete' | 'anonymise', at: Date) {
    const leads = await findSubjectLeads(db, key, SUBJECT_LEAD_LIMIT)
    const ids = leads.map((lead) => lead.id)
    const hashes = await ipHashesOf(leads)
    let deliveries: number
    if (mode === 'delete') {
      deliveries = (await deleteLeads(db, ids)).deliveries
    } else {
      deliveries = await anonymiseLeads(db, ids, at.toISOString())
    }
    const cookieChoices =
      hashes.length === 0
        ? 0
        : Number((await db.deleteFrom('cookieChoice').where('ipHash', 'in', hashes).executeTakeFirst()).numDeletedRows)
    const deadLetters = await journal.pruneDeadLetters((letter) => letterMatches(letter, key))
    return { leadIds: ids, leads: ids.length, deliveries, cookieChoices, deadLetters }
  }

  return { find, erase }
}

export type SubjectRequests = ReturnType<typeof createSubjectRequests>
