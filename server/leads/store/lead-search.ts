// How the back office finds a lead: one lower-cased text per lead, made when it is stored, that
// a search term is looked up in with LIKE. Folding happens here, in JavaScript, because SQLite's
// lower() and LIKE fold ASCII letters only (a search for «олег» must find «Олег») and both
// databases must answer alike.

interface SearchableLead {
  readonly username: string
  readonly email: string
  readonly phone: string
  readonly phoneE164: string | null
}

const digits = (text: string) => text.replace(/\D/g, '')

/** The stored search text: name, e-mail and phone as typed, folded, then the phone's digits. */
export function leadSearchText(lead: SearchableLead): string {
  const parts = [lead.username, lead.email, lead.phone, digits(lead.phone), digits(lead.phoneE164 ?? '')]
  return parts.map((part) => part.toLocaleLowerCase('ru-RU')).join('\n')
}

/**
 * What a search term looks for in the stored text (folded), or null for a blank term. A term that
 * looks like a phone is searched by its digits, and a Russian number's leading 7 or 8 is dropped,
 * so «8 999 123-45-67» finds «+7 (999) 123-45-67».
 */
export function leadSearchNeedle(term: string): string | null {
  // No stored text holds a NUL (PostgreSQL refuses one in text, and FTS5 reads a query up to it).
  let text = term.replaceAll('\0', '').trim().toLocaleLowerCase('ru-RU')
  if (text === '') return null
  if (/^[\d\s()+.-]+$/.test(text) && digits(text).length >= 3) {
    text = digits(text)
    if (text.length === 11 && /^[78]/.test(text)) text = text.slice(1)
  }
  return text
}

/** The LIKE pattern (with `\` as the escape character) a needle is found by: the definition of a match. */
export function leadSearchPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/**
 * The FTS5 query for SQLite's trigram index (migration 019): the needle as one quoted phrase,
 * which matches the texts that contain it, or null when it is shorter than a trigram (then only
 * the LIKE scan can answer). A quote inside is doubled; nothing else is syntax inside a phrase.
 */
export function leadSearchPhrase(needle: string): string | null {
  if ([...needle].length < 3) return null
  return `"${needle.replaceAll('"', '""')}"`
}
