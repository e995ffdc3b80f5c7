// One rule for every text field the site stores (a lead's fields, the content a write sends):
// no control characters. A NUL is refused by PostgreSQL (SQLSTATE 22021) after the visitor was
// answered, a line break in a name writes extra lines into a Telegram message, a lone surrogate
// cannot be encoded as UTF-8. Schemas say which kind of text a field holds with the `text`
// keyword, which createAjv() compiles from these patterns; the browser and the server run the
// same check. No ajv here: the browser's code may import this file.

/** A single line (a name, a title, a URL) or a text that may have line breaks and tabs. */
export type TextKind = 'single-line' | 'multi-line'

/** The schema keyword: `{ type: 'string', text: 'single-line' }`. */
export const TEXT_KEYWORD = 'text'

// C0 controls, DEL, C1 controls, U+2028/U+2029, the bidi embeddings, overrides and isolates
// (U+202A–U+202E, U+2066–U+2069: they make «ЭИ-1002» read as another артикул), and surrogates.
// With the `u` flag a surrogate pair is one code point above U+FFFF, outside the class, so only a
// lone surrogate matches.
const SINGLE_LINE_FORBIDDEN =
  '[\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF]'
// The same, less tab, line feed and carriage return.
const MULTI_LINE_FORBIDDEN =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF]'

/** What a text of each kind must not contain, as a regular expression with the `u` flag. */
export const FORBIDDEN_CHARACTERS: Readonly<Record<TextKind, string>> = {
  'single-line': SINGLE_LINE_FORBIDDEN,
  'multi-line': MULTI_LINE_FORBIDDEN,
}

const forbidden = {
  'single-line': new RegExp(SINGLE_LINE_FORBIDDEN, 'u'),
  'multi-line': new RegExp(MULTI_LINE_FORBIDDEN, 'u'),
}
const forbiddenRuns = new RegExp(`${SINGLE_LINE_FORBIDDEN}+`, 'gu')

/**
 * Whether `text` holds a character the rule refuses for its kind.
 *
 * @example hasForbiddenCharacters('Иван\nПетров', 'single-line') // true
 * @example hasForbiddenCharacters('Строка 1\nСтрока 2', 'multi-line') // false
 */
export function hasForbiddenCharacters(text: string, kind: TextKind): boolean {
  return forbidden[kind].test(text)
}

/**
 * The text on one line: each run of control characters, line breaks or lone surrogates becomes
 * one space. For every place a single-line value is written out (a message line, a subject).
 *
 * @example oneLine('Иван\nСтраница: https://evil') // 'Иван Страница: https://evil'
 */
export function oneLine(text: string): string {
  return text.replace(forbiddenRuns, ' ')
}

// What cleanText() takes for a line break: C0's breaks, NEL, and the Unicode line and paragraph
// separators; a run of them (or of tabs, on a single line) becomes one space.
const BREAKS = /[\n\v\f\r\u0085\u2028\u2029]/gu
const GAPS = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu
const forbiddenAll = {
  'single-line': new RegExp(SINGLE_LINE_FORBIDDEN, 'gu'),
  'multi-line': new RegExp(MULTI_LINE_FORBIDDEN, 'gu'),
}

/**
 * A text from outside (the 1C exchange, the price list) as the rule takes it, so the editor saves
 * it again unchanged: a single line has each run of line breaks and tabs as one space, a multi-line text its
 * NEL and line separators as line feeds; every other forbidden character (C0, C1, bidi controls,
 * lone surrogates) goes; the ends are trimmed. At most `max` code points when given.
 *
 * @example cleanText('ДУ-800\u202E\u0085\tудар', 'single-line') // 'ДУ-800 удар'
 * @example cleanText('Строка 1\u2028Строка 2', 'multi-line') // 'Строка 1\nСтрока 2'
 */
export function cleanText(text: string, kind: TextKind, max?: number): string {
  const broken = kind === 'single-line' ? text.replace(GAPS, ' ') : text.replace(/\r\n/g, '\n').replace(BREAKS, '\n')
  const clean = broken.replace(forbiddenAll[kind], '').trim()
  return max === undefined ? clean : clampText(clean, max).trimEnd()
}

/**
 * At most `max` characters as PostgreSQL's varchar counts them (code points), never cutting a
 * surrogate pair in two.
 *
 * @example clampText('😀😀', 1) // '😀'
 */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text
  let end = 0
  let count = 0
  for (const char of text) {
    if (count === max) break
    end += char.length
    count++
  }
  return text.slice(0, end)
}
