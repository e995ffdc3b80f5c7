// Money (issue #44, docs/decisions/040-exact-money.md): a price is kept as whole kopecks, an
// integer, everywhere inside the site: the database, the pages, the feed, the orders. Rubles appear
// only at the edges: text a person types or a file holds is read exactly (digits, never a float
// multiplication), and the JSON APIs carry rubles as a number with at most two decimals, which
// JSON writes exactly (1299.9 is the text «1299.9»).

/** Whole kopecks: 129990 is 1 299,90 ₽. */
export type Kopecks = number

/** The largest price (and old price) the site keeps, in whole rubles. */
export const MAX_PRICE_RUBLES = 2_147_483_647

/** The same, in kopecks: what the 1C exchange, the price list, «Товары» and the model API refuse past. */
export const MAX_PRICE: Kopecks = MAX_PRICE_RUBLES * 100

// One formatter for the whole app: Intl.NumberFormat is costly to build and the options never change.
const rubles = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
})
// Formatting is ~1 µs a call (24 per home page); a page shows the same few prices on every
// rendering, so each value's text is kept (bounded: emptied when full).
const texts = new Map<number, string>()
const MAX_TEXTS = 1000

/** Two digits of kopecks: 5 → '05'. */
const twoDigits = (kopecks: number) => String(kopecks).padStart(2, '0')

/**
 * A price as Intl writes rubles for ru-RU (digit groups and the ruble sign after a no-break
 * space): a whole price without decimals, «1 300 ₽» (the specification's integer format), a price
 * with kopecks with both digits of them, «1 299,90 ₽». A value that is not a whole number of
 * kopecks is rounded to one (half away from zero); a non-finite value gives ''.
 *
 * @example
 * formatMoney(130000) // '1 300 ₽' (with no-break spaces)
 * formatMoney(129990) // '1 299,90 ₽'
 */
export function formatMoney(kopecks: Kopecks): string {
  if (!Number.isFinite(kopecks)) return ''
  // `|| 0` turns -0 into 0 so that -0.4 prints as «0 ₽», not «-0 ₽».
  const key = Math.sign(kopecks) * Math.round(Math.abs(kopecks)) || 0
  let text = texts.get(key)
  if (text === undefined) {
    if (texts.size >= MAX_TEXTS) texts.clear()
    const abs = Math.abs(key)
    const whole = rubles.format(Math.sign(key) * Math.trunc(abs / 100) || 0)
    const cents = abs % 100
    // The kopecks go after the last digit of the rubles, before the sign: «1 299,90 ₽».
    text = cents === 0 ? whole : whole.replace(/(\d)(?=\D*$)/, `$1,${twoDigits(cents)}`)
    if (key < 0 && !text.startsWith('-')) text = `-${text}`
    texts.set(key, text)
  }
  return text
}

/**
 * The price as a plain decimal in rubles, a point before the kopecks, as the YML feed, JSON-LD and
 * CommerceML write it: '1299.90', or '1300' for a whole price.
 */
export function rublesDecimal(kopecks: Kopecks): string {
  const sign = kopecks < 0 ? '-' : ''
  const abs = Math.abs(Math.round(kopecks))
  const cents = abs % 100
  const whole = String((abs - cents) / 100)
  return cents === 0 ? `${sign}${whole}` : `${sign}${whole}.${twoDigits(cents)}`
}

/** The price in rubles for a JSON API: 129990 → 1299.9 (JSON writes it as that exact decimal). */
export function rublesNumber(kopecks: Kopecks): number {
  return kopecks / 100
}

const JSON_RUBLES = /^(\d+)(?:\.(\d{1,2}))?$/

/**
 * The kopecks of a number of rubles a JSON API received, exactly: the number's own decimal text
 * (what the client wrote, for up to 15 significant digits) is read, never multiplied as a float.
 * Null when it is negative, not finite or has more than two decimals.
 */
export function kopecksOfRubles(value: number): Kopecks | null {
  if (!Number.isFinite(value)) return null
  const match = JSON_RUBLES.exec(String(value))
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** Whether a number of rubles has at most two decimals (the `kopecks` keyword of the schemas). */
export const RUBLES_PATTERN = /^-?\d+(\.\d{1,2})?$/

export type MoneyParse =
  { readonly ok: true; readonly kopecks: Kopecks } | { readonly ok: false; readonly reason: string }

const DECIMAL = /^\+?(\d*)(?:[.,](\d*))?$/

/** 2147483647 → «2 147 483 647» */
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')

/**
 * A price as a person or a spreadsheet writes it: «1 299,90», «1299.9», «1 299,90 руб.», «1 300 ₽»,
 * «1.299,90». Read as digits, exactly. More than two decimals: rounded half up to the kopeck when
 * `round` (a file from 1C or Excel), else refused (what the owner types). Refused with a Russian
 * reason: what is not a plain decimal (`0x10`, `1e308`, `Infinity`), a negative price, past MAX_PRICE.
 */
export function parseMoney(text: string, options: { readonly round?: boolean } = {}): MoneyParse {
  let compact = text.replace(/[\s\u00a0\u202f]/g, '').replace(/(₽|руб\.?|р\.?)$/i, '')
  // «1.299,90»: points group the digits when a comma is the decimal mark.
  if (compact.includes(',') && compact.includes('.')) compact = compact.replace(/\./g, '')
  const negative = compact.startsWith('-')
  if (negative) compact = compact.slice(1)
  const match = compact.length <= 40 ? DECIMAL.exec(compact) : null
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return { ok: false, reason: 'не число' }
  const whole = match[1].replace(/^0+(?=\d)/, '') || '0'
  let fraction = match[2] ?? ''
  let carry = 0
  if (fraction.length > 2) {
    if (!options.round) return { ok: false, reason: 'не более 2 знаков после запятой' }
    carry = fraction.charCodeAt(2) >= 0x35 ? 1 : 0 // '5' and above round the kopeck up
    fraction = fraction.slice(0, 2)
  }
  if (whole.length > 12) return { ok: false, reason: `больше ${groupDigits(MAX_PRICE_RUBLES)} ₽` }
  const kopecks = Number(whole) * 100 + Number(fraction.padEnd(2, '0')) + carry
  if (negative && kopecks > 0) return { ok: false, reason: 'отрицательная цена' }
  if (kopecks > MAX_PRICE) return { ok: false, reason: `больше ${groupDigits(MAX_PRICE_RUBLES)} ₽` }
  return { ok: true, kopecks }
}

/** A price a JSON API gave in rubles, formatted as formatMoney does: 1299.9 → «1 299,90 ₽». */
export function formatRubles(rubles: number): string {
  const kopecks = kopecksOfRubles(Math.abs(rubles))
  return formatMoney(kopecks === null ? rubles * 100 : Math.sign(rubles) * kopecks)
}

/** Rubles from an API as the owner edits them: 1299.9 → '1299,90', 1300 → '1300'. */
export function editableRubles(rubles: number): string {
  const kopecks = kopecksOfRubles(Math.abs(rubles))
  return kopecks === null ? String(rubles) : rublesDecimal(kopecks).replace('.', ',')
}
