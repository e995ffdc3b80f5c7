import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, formatDateTimeIn, formatTime } from './format-date'
import type { DateStyle } from './format-date'

const ZONE = 'Europe/Moscow'
const STYLES = ['short', 'medium', 'long', 'full'] as const
const moment = new Date('2026-03-02T09:05:00Z')

function intl(options: Intl.DateTimeFormatOptions, value: Date = moment): string {
  return new Intl.DateTimeFormat('ru-RU', { ...options, timeZone: ZONE }).format(value)
}

describe('default style', () => {
  it('prints the date as numeric day.month.year', () => {
    expect(formatDate(moment)).toBe(intl({ day: '2-digit', month: '2-digit', year: 'numeric' }))
    expect(formatDate(moment)).toMatch(/^02\.03\.2026$/)
  })

  it('prints the time as a 24-hour HH:mm', () => {
    expect(formatTime(moment)).toBe(intl({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }))
    expect(formatTime(moment)).toMatch(/^12:05$/)
    expect(formatTime('2026-03-02T21:00:00Z')).toMatch(/^00:00$/)
  })

  it('prints the datetime as the default date and time together', () => {
    expect(formatDateTime(moment)).toBe(
      intl({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    )
    expect(formatDateTime(moment)).toContain(formatDate(moment))
    expect(formatDateTime(moment)).toContain(formatTime(moment))
  })

  it('is what an omitted style means', () => {
    expect(formatDate(moment)).toBe(formatDate(moment, 'default'))
    expect(formatTime(moment)).toBe(formatTime(moment, 'default'))
    expect(formatDateTime(moment)).toBe(formatDateTime(moment, 'default'))
  })
})

describe.each(STYLES)('%s style', (style: Exclude<DateStyle, 'default'>) => {
  it('formats a date as Intl dateStyle does', () => {
    expect(formatDate(moment, style)).toBe(intl({ dateStyle: style }))
  })

  it('formats a time as Intl timeStyle does', () => {
    expect(formatTime(moment, style)).toBe(intl({ timeStyle: style }))
  })

  it('formats a datetime as Intl dateStyle with timeStyle does', () => {
    expect(formatDateTime(moment, style)).toBe(intl({ dateStyle: style, timeStyle: style }))
  })
})

describe('time zone', () => {
  const newYearEve = '2026-01-01T21:30:00Z'

  it('shows Moscow time whatever the host zone, so 21:30 UTC is 00:30 the next day', () => {
    expect(formatTime(newYearEve)).toBe('00:30')
    expect(formatDate(newYearEve)).toBe('02.01.2026')
    expect(formatDate(newYearEve, 'long')).toBe(intl({ dateStyle: 'long' }, new Date(newYearEve)))
    expect(formatDate(newYearEve, 'long')).toMatch(/^2 января 2026/)
  })
})

describe('input kinds', () => {
  it('treats a Date, an ISO string and a timestamp alike', () => {
    const expected = formatDateTime(moment, 'medium')
    expect(formatDateTime(moment.toISOString(), 'medium')).toBe(expected)
    expect(formatDateTime(moment.getTime(), 'medium')).toBe(expected)
  })
})

describe('invalid input', () => {
  const invalid: Array<[string, Date | string | number]> = [
    ['an invalid Date', new Date('not a date')],
    ['an unparsable string', 'вчера'],
    ['an empty string', ''],
    ['NaN', Number.NaN],
    ['an out-of-range timestamp', 8.64e15 + 1],
  ]

  it.each(invalid)('returns an empty string for %s', (_name, value) => {
    for (const style of ['default', ...STYLES] as const) {
      expect(formatDate(value, style)).toBe('')
      expect(formatTime(value, style)).toBe('')
      expect(formatDateTime(value, style)).toBe('')
    }
  })

  it('returns an empty string for null or undefined slipping past the types', () => {
    expect(formatDate(null as unknown as Date)).toBe('')
    expect(formatDateTime(undefined as unknown as Date)).toBe('')
  })
})

describe('formatDateTimeIn', () => {
  it('prints day.month.year hours:minutes in the given zone', () => {
    expect(formatDateTimeIn('2026-03-02T09:05:00Z', 'Europe/Moscow')).toBe('02.03.2026 12:05')
    expect(formatDateTimeIn('2026-03-02T09:05:00Z', 'Asia/Yekaterinburg')).toBe('02.03.2026 14:05')
    // Past midnight in Vladivostok while still the day before in UTC.
    expect(formatDateTimeIn('2026-12-31T20:30:00Z', 'Asia/Vladivostok')).toBe('01.01.2027 06:30')
  })

  it('gives an empty string for what is not a date', () => {
    expect(formatDateTimeIn('not a date', 'Europe/Moscow')).toBe('')
  })
})
