// The site's documents on personal data (docs/decisions/027-personal-data.md): the privacy policy
// (`/politika`), the consent to processing (`/soglasie`, which the lead form links to) and the
// cookie notice's full text (`/cookies`), each a published `page` record the owner edits in the
// back office. Each has a version: a hash of its title and text, so every record made under it
// (a lead's consent, a cookie choice) names the text the visitor was shown. A site whose database
// was made before the documents gets the ones it lacks at start-up (addMissingDocuments).
import { createHash } from 'node:crypto'
import { COOKIE_NOTICE_TEXT } from '../../src/site/cookie-consent'
import type { Db } from '../data/db'
import type { ContentDoor } from './content-write'
import { DEMO_PAGES } from './demo-documents'
import { movedTarget } from './moved-urls'
import { insertRecord, isGoneUrl, loadPublishedText, sortAfterLastChild, updateRecord } from './structure-store'

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
    return cookieNoticeVersionOf(await loadPublishedText(db, url))
  } catch {
    return BUILT_IN_COOKIE_VERSION
  }
}

/** The notice's version given the published cookie page's title and text (none: the built-in text). */
export function cookieNoticeVersionOf(page: { title: string; content: string | null } | undefined): string {
  if (!page) return BUILT_IN_COOKIE_VERSION
  return documentVersion(page.title, `${COOKIE_NOTICE_TEXT.body}\n\n${page.content ?? ''}`)
}

/**
 * The versions of the demo's documents before issue 24 (ООО «ТехноМастер» and its address written
 * in, no operator fields): a site that still shows one of them word for word gets the template.
 */
const PRE_TEMPLATE_DEMO_VERSIONS: Readonly<Record<string, string>> = {
  politika: 'sha256:13a1cd0dcd3edea5',
  soglasie: 'sha256:ec3e38a664b63354',
}

/**
 * The documents a site made before them lacks, added under its home page (`/`), last among its
 * children, from the demo templates (decision 027): at every start, in one write transaction, so
 * that concurrent processes add each once. A document the site has in any form is left alone: a
 * record at its URL (the owner's text; only the demo's own older text, unedited, becomes the
 * template), a page of the home page whose URL ends in its slug (`/info/politika`), or its URL
 * deleted (410) or moved (301) by the owner. A database without a home page (empty, before the seed
 * or an import) gets nothing. Returns the URLs added or replaced.
 */
export async function addMissingDocuments(door: ContentDoor): Promise<string[]> {
  return door.write(async (unit) => {
    const trx = unit.trx
    const home = await trx.selectFrom('structure').select('id').where('urlFull', '=', '/').executeTakeFirst()
    if (!home) return []
    const added: string[] = []
    for (const { slug, title, content } of DEMO_PAGES) {
      const url = `/${slug}`
      const existing = await trx
        .selectFrom('structure')
        .select(['id', 'title', 'content'])
        .where('urlFull', '=', url)
        .executeTakeFirst()
      if (existing) {
        if (documentVersion(existing.title, existing.content ?? '') !== PRE_TEMPLATE_DEMO_VERSIONS[slug]) continue
        await updateRecord(unit, existing.id, { title, content })
        added.push(url)
        continue
      }
      const ownPage = await trx
        .selectFrom('structure')
        .select('id')
        .where('parentId', '=', home.id)
        .where('typeId', '=', 'page')
        .where((eb) => eb.or([eb('urlFull', 'like', `%${url}`), eb('urlFull', 'like', `%${url}/`)]))
        .executeTakeFirst()
      if (ownPage || (await isGoneUrl(trx, url)) || (await movedTarget(trx, url)) !== null) continue
      const sort = await sortAfterLastChild(trx, home.id)
      await insertRecord(unit, { parentId: home.id, typeId: 'page', title, urlFull: url, sort, content })
      added.push(url)
    }
    return added
  })
}
