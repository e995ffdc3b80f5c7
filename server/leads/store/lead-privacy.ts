// The leads repository's side of personal data (docs/decisions/027-personal-data.md): leads past
// the retention period anonymised, and everything about one person (by phone or e-mail) found,
// anonymised or deleted, with their delivery rows. Only this file and its neighbours in store/
// write the lead tables.
import { sql } from 'kysely'
import { type Db } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import type { Database } from '../../data/schema'
import { deleteLeadDeliveries, deliveryRowsOf } from './delivery-outbox'
import { CONSENT_COLUMNS, CONTACT_COLUMNS } from './stored-lead'
import type { Transaction } from 'kysely'

/** What an anonymised lead's name says; phone and e-mail become empty. */
export const ANONYMISED_NAME = 'Данные удалены'
/** Leads changed in one transaction: a year of a busy shop's leads never holds the lock long. */
const BATCH = 500

/** The personal fields of a lead replaced; its row, status, source, tags and consent version kept. */
const ANONYMISED = {
  username: ANONYMISED_NAME,
  phone: '',
  email: '',
  phoneE164: null,
  consentIp: null,
  consentUserAgent: null,
  searchText: null,
} as const

async function anonymiseIn(trx: Transaction<Database>, ids: readonly number[], at: string): Promise<number> {
  if (ids.length === 0) return 0
  await trx
    .updateTable('feedback')
    .set({ ...ANONYMISED, anonymizedAt: at })
    .where('id', 'in', ids)
    .execute()
  return deleteLeadDeliveries(trx, ids)
}

/**
 * Anonymises every lead created before `cutoff` that still holds personal data, and deletes its
 * delivery rows, in batches. Returns how many leads and delivery rows it changed.
 */
export async function anonymiseLeadsBefore(
  db: Db,
  cutoff: string,
  at: string,
): Promise<{ leads: number; deliveries: number }> {
  const total = { leads: 0, deliveries: 0 }
  for (;;) {
    const ids = (
      await db
        .selectFrom('feedback')
        .select('id')
        .where('createdAt', '<', cutoff)
        .where('anonymizedAt', 'is', null)
        .orderBy('createdAt')
        .limit(BATCH)
        .execute()
    ).map((row) => row.id)
    if (ids.length === 0) return total
    total.deliveries += await writeTransaction(db, (trx) => anonymiseIn(trx, ids, at))
    total.leads += ids.length
  }
}

/** How a person is looked for: the phone in E.164 and its national digits, or the e-mail. */
export type SubjectKey = { readonly phoneE164: string; readonly digits: string } | { readonly email: string }

/** Candidate leads read per query while looking for one person's exact matches. */
const SUBJECT_PAGE = 500

/**
 * Leads of one person, at most `limit` (the screen says when there are more). The index-friendly
 * condition (the E.164 phone, or the search text containing the digits or e-mail) finds
 * candidates; only exact ones count (the phone's digits end with the national number, or the
 * e-mail is the same). Candidates are read page by page in id order until `limit` exact ones or
 * the end, so any number of leads that merely contain the digits (spam sent to hide a person)
 * cannot push the person out of the answer.
 */
export async function findSubjectLeads(db: Db, key: SubjectKey, limit: number) {
  const digitsOf = (text: string) => text.replace(/\D/g, '')
  const isExact = (row: { email: string; phone: string; phoneE164: string | null }) =>
    'email' in key
      ? row.email.trim().toLowerCase() === key.email
      : row.phoneE164 === key.phoneE164 || digitsOf(row.phone).endsWith(key.digits)
  const found = []
  let after = 0
  for (;;) {
    let query = db
      .selectFrom('feedback')
      .select([...CONTACT_COLUMNS, 'status', 'spam', 'sourceUrl', 'productTitle', 'utm', ...CONSENT_COLUMNS])
      .where('id', '>', after)
    if ('email' in key) {
      // searchText holds the e-mail folded to lower case; the exact match is checked above.
      query = query.where(sql<boolean>`${sql.ref('searchText')} like ${`%${escapeLike(key.email)}%`} escape '\\'`)
    } else {
      query = query.where((eb) =>
        eb.or([
          eb('phoneE164', '=', key.phoneE164),
          sql<boolean>`${sql.ref('searchText')} like ${`%${escapeLike(key.digits)}%`} escape '\\'`,
        ]),
      )
    }
    const rows = await query.orderBy('id').limit(SUBJECT_PAGE).execute()
    for (const row of rows) {
      if (!isExact(row)) continue
      found.push(row)
      if (found.length === limit) return found
    }
    if (rows.length < SUBJECT_PAGE) return found
    after = rows[rows.length - 1].id
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

/** The delivery rows of these leads, for the person's export (the outbox reads them). */
export async function deliveriesOfLeads(db: Db, ids: readonly number[]) {
  return deliveryRowsOf(db, ids)
}

/** Anonymises these leads now (a person's request) and deletes their delivery rows. */
export async function anonymiseLeads(db: Db, ids: readonly number[], at: string): Promise<number> {
  return writeTransaction(db, (trx) => anonymiseIn(trx, ids, at))
}

/** Deletes these leads and their delivery rows (a person's request). */
export async function deleteLeads(db: Db, ids: readonly number[]): Promise<{ leads: number; deliveries: number }> {
  if (ids.length === 0) return { leads: 0, deliveries: 0 }
  return writeTransaction(db, async (trx) => {
    const deliveries = await deleteLeadDeliveries(trx, ids)
    const leads = await trx.deleteFrom('feedback').where('id', 'in', ids).executeTakeFirst()
    return { leads: Number(leads.numDeletedRows), deliveries }
  })
}
