import { describe, expect, it } from 'vitest'
import { formatPrice } from './format-price'

const intl = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
})

describe('formatPrice', () => {
  it('prints an integer price exactly as Intl does for ru-RU rubles', () => {
    for (const value of [0, 7, 990, 1234, 1234567, -2500]) {
      expect(formatPrice(value)).toBe(intl.format(value))
    }
  })

  it('separates thousands with a no-break space, never an ASCII space', () => {
    const text = formatPrice(1234567)
    expect(text).toMatch(/^1[\u00A0\u202F]234[\u00A0\u202F]567/)
    expect(text).not.toContain(' ')
  })

  it('appends the ruble sign to an integer price', () => {
    expect(formatPrice(1234567)).toMatch(/\d[\u00A0\u202F]?₽$/)
  })

  it('shows no fraction digits', () => {
    expect(formatPrice(1500)).not.toMatch(/[.,]\d/)
  })

  it('rounds a fractional price to whole rubles, halves away from zero', () => {
    expect(formatPrice(1234.4)).toBe(intl.format(1234))
    expect(formatPrice(1234.5)).toBe(intl.format(1235))
    expect(formatPrice(99.99)).toBe(intl.format(100))
    expect(formatPrice(-1234.5)).toBe(intl.format(-1235))
  })

  it('never prints a negative zero', () => {
    expect(formatPrice(-0.4)).toBe(intl.format(0))
    expect(formatPrice(-0)).toBe(intl.format(0))
  })

  it('returns an empty string for a non-finite number', () => {
    expect(formatPrice(Number.NaN)).toBe('')
    expect(formatPrice(Number.POSITIVE_INFINITY)).toBe('')
  })
})
