import { describe, expect, it } from 'vitest'
import { normalizeRuPhone, telHref } from './phone'

describe('normalizeRuPhone', () => {
  for (const text of [
    '8 999 123-45-67',
    '+7 (999) 123-45-67',
    '9991234567',
    '79991234567',
    '89991234567',
    '+79991234567',
    '8(999)123.45.67',
  ]) {
    it(`reads «${text}» as +79991234567`, () => {
      expect(normalizeRuPhone(text)).toBe('+79991234567')
    })
  }

  it('reads an 8-800 toll-free number', () => {
    expect(normalizeRuPhone('8 (800) 555-35-35')).toBe('+78005553535')
  })

  it('ignores surrounding and non-breaking spaces', () => {
    expect(normalizeRuPhone('  +7\u00a0999\u00a0123\u00a045\u00a067 ')).toBe('+79991234567')
  })

  it('returns null for what is not a Russian number', () => {
    for (const text of [
      '12345',
      '',
      '+8 999 123-45-67',
      '+44 20 7946 0958',
      '1234567890',
      '999123456',
      '899912345678',
      'тел. 89991234567',
      '8 999 123-45-67 доб. 12',
      '++79991234567',
    ]) {
      expect(normalizeRuPhone(text), text).toBeNull()
    }
  })
})

describe('telHref', () => {
  it('links a Russian number in E.164 however it is written', () => {
    expect(telHref('+7 (495) 123-45-67')).toBe('+74951234567')
    expect(telHref('8 (800) 555-35-35')).toBe('+78005553535')
    expect(telHref('(495) 123-45-67')).toBe('+74951234567')
  })

  it('keeps other numbers as their digits, with the plus if there was one', () => {
    expect(telHref('+375 29 123-45-67')).toBe('+375291234567')
    expect(telHref('123-45-67')).toBe('1234567')
  })
})
