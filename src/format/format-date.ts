/** The styles every date, time and datetime formatter accepts (docs/contract.md §6). */
export type DateStyle = 'default' | 'short' | 'medium' | 'long' | 'full'

/** What the formatters accept: a Date, an ISO/RFC string, or a millisecond timestamp. */
type DateInput = Date | string | number

type Kind = 'date' | 'time' | 'datetime'

const LOCALE = 'ru-RU'
// The server and every browser must print the same text, or React reports a hydration
// mismatch; the shop works on Moscow time, so the zone is fixed instead of taken from the host.
const TIME_ZONE = 'Europe/Moscow'

// 'default' is pinned by components rather than by a dateStyle, so its shape does not move
// with ICU updates: numeric day.month.year and a 24-hour HH:mm.
const DEFAULT_DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' }
const DEFAULT_TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }

const formatters = new Map<string, Intl.DateTimeFormat>()

function optionsFor(kind: Kind, style: DateStyle): Intl.DateTimeFormatOptions {
  if (style === 'default') {
    if (kind === 'date') return DEFAULT_DATE
    if (kind === 'time') return DEFAULT_TIME
    return { ...DEFAULT_DATE, ...DEFAULT_TIME }
  }
  if (kind === 'date') return { dateStyle: style }
  if (kind === 'time') return { timeStyle: style }
  return { dateStyle: style, timeStyle: style }
}

function formatterFor(kind: Kind, style: DateStyle): Intl.DateTimeFormat {
  const key = `${kind}:${style}`
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE, { ...optionsFor(kind, style), timeZone: TIME_ZONE })
    formatters.set(key, formatter)
  }
  return formatter
}

function toDate(value: DateInput): Date | null {
  if (!(value instanceof Date) && typeof value !== 'string' && typeof value !== 'number') return null
  const date = new Date(value instanceof Date ? value.getTime() : value)
  return Number.isNaN(date.getTime()) ? null : date
}

function format(kind: Kind, value: DateInput, style: DateStyle): string {
  const date = toDate(value)
  return date ? formatterFor(kind, style).format(date) : ''
}

/**
 * Formats the calendar date in Moscow time (ru-RU).
 * 'default' is numeric day.month.year ('02.03.2026'); 'short' | 'medium' | 'long' | 'full'
 * are Intl's `dateStyle` of the same name ('2 марта 2026 г.' for 'long').
 * Invalid input (an invalid Date, an unparsable string, NaN) gives '' instead of 'Invalid Date'.
 *
 * @example
 * formatDate('2026-03-02T09:05:00Z')          // '02.03.2026'
 * formatDate('2026-03-02T09:05:00Z', 'long')  // '2 марта 2026 г.'
 */
export function formatDate(value: DateInput, style: DateStyle = 'default'): string {
  return format('date', value, style)
}

/**
 * Formats the time of day in Moscow time (ru-RU).
 * 'default' is a 24-hour HH:mm ('12:05'); 'short' | 'medium' | 'long' | 'full' are Intl's
 * `timeStyle` of the same name ('12:05:00' for 'medium').
 * Invalid input gives ''.
 *
 * @example
 * formatTime('2026-03-02T09:05:00Z') // '12:05'
 */
export function formatTime(value: DateInput, style: DateStyle = 'default'): string {
  return format('time', value, style)
}

/**
 * Formats date and time in Moscow time (ru-RU).
 * 'default' is the default date and time as Intl joins them ('02.03.2026, 12:05');
 * 'short' | 'medium' | 'long' | 'full' set both Intl's `dateStyle` and `timeStyle` to that style.
 * Invalid input gives ''.
 *
 * @example
 * formatDateTime('2026-03-02T09:05:00Z')           // '02.03.2026, 12:05'
 * formatDateTime('2026-03-02T09:05:00Z', 'medium') // '2 мар. 2026 г., 12:05:00'
 */
export function formatDateTime(value: DateInput, style: DateStyle = 'default'): string {
  return format('datetime', value, style)
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>()

/**
 * Date and time as the owner reads them in e-mails, messages and spreadsheets: «ДД.ММ.ГГГГ ЧЧ:ММ»
 * in the given IANA time zone (the site's, SITE_TIMEZONE). Invalid input gives ''.
 *
 * @example formatDateTimeIn('2026-03-02T09:05:00Z', 'Asia/Yekaterinburg') // '02.03.2026 14:05'
 */
export function formatDateTimeIn(value: DateInput, timeZone: string): string {
  const date = toDate(value)
  if (!date) return ''
  let formatter = zoneFormatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE, { ...DEFAULT_DATE, ...DEFAULT_TIME, timeZone })
    zoneFormatters.set(timeZone, formatter)
  }
  const part = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]))
  return `${part.day}.${part.month}.${part.year} ${part.hour}:${part.minute}`
}
