// The site's documents on personal data (docs/decisions/027-personal-data.md): the privacy policy
// (`/politika`), the consent to processing (`/soglasie`, which the lead form links to) and the
// cookie notice's full text (`/cookies`), each a published `page` record the owner edits in the
// back office. Each has a version: a hash of its title and text, so every record made under it
// (a lead's consent, a cookie choice) names the text the visitor was shown.
import { createHash } from 'node:crypto'
import { COOKIE_NOTICE_TEXT } from '../../src/site/cookie-consent'
import type { Db } from '../data/db'
import { loadPublishedText } from './structure-store'

/** The operator's details the documents' templates name. */
export interface OperatorValues {
  readonly name: string
  readonly inn: string
  readonly address: string
}

/** What a template says where a detail is still empty: visible, so the owner sees the gap. */
export const NOT_SET = '[не указано]'

/**
 * The text with the operator's details in place of `{{оператор}}`, `{{ИНН}}` and `{{адрес}}`
 * (any case), as the demo documents are written; text without them is returned as it is.
 */
export function fillOperator(text: string, operator: OperatorValues): string {
  if (!text.includes('{{')) return text
  return text.replace(/\{\{\s*(оператор|инн|адрес)\s*\}\}/giu, (_match, key: string) => {
    const value = { оператор: operator.name, инн: operator.inn, адрес: operator.address }[key.toLowerCase() as 'инн']
    return value || NOT_SET
  })
}

/** `sha256:` and the first 16 hex digits of the hash of title and text. */
export function documentVersion(title: string, content: string): string {
  return `sha256:${createHash('sha256').update(`${title}\n\n${content}`).digest('hex').slice(0, 16)}`
}

/** The version of the notice's own words, when the site has no cookie page. */
export const BUILT_IN_COOKIE_VERSION = documentVersion(COOKIE_NOTICE_TEXT.title, COOKIE_NOTICE_TEXT.body)

/**
 * The cookie notice's version: of the notice's words and the cookie page together, so that an
 * edit of either asks every visitor again. Unreadable (the database away): the built-in version.
 */
export async function cookieNoticeVersion(db: Db, url: string | null): Promise<string> {
  if (!url) return BUILT_IN_COOKIE_VERSION
  try {
    const row = await loadPublishedText(db, url)
    if (!row) return BUILT_IN_COOKIE_VERSION
    return documentVersion(row.title, `${COOKIE_NOTICE_TEXT.body}\n\n${row.content ?? ''}`)
  } catch {
    return BUILT_IN_COOKIE_VERSION
  }
}
