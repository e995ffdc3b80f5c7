import { describe, expect, it } from 'vitest'
import { formatMoney, kopecksOfRubles, MAX_PRICE, parseMoney, rublesDecimal } from './money'

const intl = (digits: number) =>
  new Intl.NumberFormat('ru-RU', {
    style: 'currency',
    currency: 'RUB',
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  })

describe('formatMoney', () => {
  it('prints a whole price as Intl prints whole rubles for ru-RU: no decimals', () => {
    for (const rubles of [0, 7, 990, 1300, 1234567, -2500]) {
      expect(formatMoney(rubles * 100)).toBe(intl(0).format(rubles))
    }
    expect(formatMoney(130000)).not.toMatch(/[.,]\d/)
  })

  it('prints a price with kopecks with both digits, as Intl does', () => {
    expect(formatMoney(129990)).toBe(intl(2).format(1299.9))
    expect(formatMoney(129990)).toMatch(/^1[\u00A0\u202F]299,90[\u00A0\u202F]₽$/)
    expect(formatMoney(5)).toBe(intl(2).format(0.05))
    expect(formatMoney(123456789)).toBe(intl(2).format(1234567.89))
    expect(formatMoney(-150)).toBe(intl(2).format(-1.5))
  })

  it('separates thousands with a no-break space, never an ASCII space', () => {
    expect(formatMoney(123456700)).not.toContain(' ')
  })

  it('never prints a negative zero, and gives nothing for a non-finite number', () => {
    expect(formatMoney(-0)).toBe(intl(0).format(0))
    expect(formatMoney(Number.NaN)).toBe('')
  })
})

describe('rublesDecimal', () => {
  it('writes a plain decimal with a point, whole prices without decimals', () => {
    expect(rublesDecimal(129990)).toBe('1299.90')
    expect(rublesDecimal(130000)).toBe('1300')
    expect(rublesDecimal(5)).toBe('0.05')
    expect(rublesDecimal(MAX_PRICE + 99)).toBe('2147483647.99')
  })
})

describe('kopecksOfRubles', () => {
  it('reads a JSON number of rubles exactly, up to two decimals', () => {
    expect(kopecksOfRubles(1299.9)).toBe(129990)
    expect(kopecksOfRubles(0.07)).toBe(7)
    expect(kopecksOfRubles(1.1)).toBe(110) // 1.1 * 100 is 110.00000000000001 as a float
    expect(kopecksOfRubles(2147483647.99)).toBe(214748364799)
    expect(kopecksOfRubles(3990)).toBe(399000)
  })

  it('refuses more than two decimals, negatives and non-finite numbers', () => {
    for (const value of [1.234, -1, Number.NaN, Number.POSITIVE_INFINITY, 0.1 + 0.2, 1e21]) {
      expect(kopecksOfRubles(value)).toBeNull()
    }
  })
})

describe('parseMoney', () => {
  it('reads what people and spreadsheets write, exactly', () => {
    const cases: Array<[string, number]> = [
      ['1 299,90', 129990],
      ['1299.9', 129990],
      ['1299,90 руб.', 129990],
      ['1\u00a0300\u00a0₽', 130000],
      ['1.299,90', 129990],
      ['0,5', 50],
      ['  42 ', 4200],
      ['-0', 0],
      ['2147483647,00', MAX_PRICE],
    ]
    for (const [text, kopecks] of cases) expect(parseMoney(text)).toEqual({ ok: true, kopecks })
  })

  it('refuses more than two decimals unless asked to round half up to the kopeck', () => {
    expect(parseMoney('1299,999')).toEqual({ ok: false, reason: 'не более 2 знаков после запятой' })
    expect(parseMoney('1299,995', { round: true })).toEqual({ ok: true, kopecks: 130000 })
    expect(parseMoney('1299,994', { round: true })).toEqual({ ok: true, kopecks: 129999 })
  })

  it('names why it refuses a value', () => {
    expect(parseMoney('0x10')).toEqual({ ok: false, reason: 'не число' })
    expect(parseMoney('1e308')).toEqual({ ok: false, reason: 'не число' })
    expect(parseMoney('Infinity')).toEqual({ ok: false, reason: 'не число' })
    expect(parseMoney('-5')).toEqual({ ok: false, reason: 'отрицательная цена' })
    expect(parseMoney('2147483648')).toEqual({ ok: false, reason: 'больше 2 147 483 647 ₽' })
    expect(parseMoney('99999999999999999999')).toEqual({ ok: false, reason: 'больше 2 147 483 647 ₽' })
  })
})
