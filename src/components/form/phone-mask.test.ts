import { format } from '@react-input/mask'
import type { TrackingData } from '@react-input/mask'
import { describe, expect, it } from 'vitest'
import { dropTypedTrunkPrefix, inputDigitsBefore, PHONE_MASK, PHONE_REPLACEMENT, stripRuCountryPrefix, toMaskedRuPhone, trackRuPhone } from './phone-mask'

const options = { mask: PHONE_MASK, replacement: PHONE_REPLACEMENT }

function insert(value: string, data: string, selectionStart = value.length, selectionEnd = selectionStart): TrackingData {
  return { inputType: 'insert', value, data, selectionStart, selectionEnd }
}

describe('stripRuCountryPrefix', () => {
  it('drops a leading +7, with or without formatting', () => {
    expect(stripRuCountryPrefix('+79991234567')).toBe('9991234567')
    expect(stripRuCountryPrefix('+7 (999) 123-45-67')).toBe(' (999) 123-45-67')
    expect(stripRuCountryPrefix(' + 7 999')).toBe(' 999')
  })

  it('drops the first digit of 11 digits that start with 8 or 7', () => {
    expect(stripRuCountryPrefix('8 999 123-45-67')).toBe('9991234567')
    expect(stripRuCountryPrefix('89991234567')).toBe('9991234567')
    expect(stripRuCountryPrefix('79991234567')).toBe('9991234567')
  })

  it('leaves ten digits and short input alone', () => {
    expect(stripRuCountryPrefix('9991234567')).toBe('9991234567')
    expect(stripRuCountryPrefix('8')).toBe('8')
    expect(stripRuCountryPrefix('812')).toBe('812')
  })
})

describe('the masked result of a pasted or autofilled number', () => {
  for (const pasted of ['8 999 123-45-67', '+79991234567', '89991234567', '79991234567', '+7 (999) 123-45-67', '9991234567']) {
    it(`shows «${pasted}» as +7 (999) 123-45-67`, () => {
      const data = trackRuPhone(insert('', pasted))
      expect(typeof data).toBe('string')
      expect(format(data as string, options)).toBe('+7 (999) 123-45-67')
    })
  }
})

describe('trackRuPhone', () => {
  it('strips the prefix when text replaces the whole value, as autofill does', () => {
    expect(trackRuPhone(insert('+7 (111) 222-33-44', '89991234567', 0, 18))).toBe('9991234567')
  })

  it('strips the prefix when the caret is still inside the fixed «+7 (»', () => {
    expect(trackRuPhone(insert('+7 (999', '+79991234567', 2))).toBe('9991234567')
  })

  it('keeps a single typed first digit, so codes such as 812 can be typed', () => {
    expect(trackRuPhone(insert('', '8'))).toBe('8')
    expect(trackRuPhone(insert('', '7'))).toBe('7')
  })

  it('keeps digits pasted after digits already entered', () => {
    expect(trackRuPhone(insert('+7 (999', '89991234567'))).toBe('89991234567')
  })

  it('leaves deletions to the mask', () => {
    expect(trackRuPhone({ inputType: 'deleteBackward', value: '+7 (999', data: null, selectionStart: 6, selectionEnd: 7 })).toBe(true)
  })
})

describe('inputDigitsBefore', () => {
  it('does not count the 7 of the fixed +7', () => {
    expect(inputDigitsBefore('+7 (999) 1', 0)).toBe(0)
    expect(inputDigitsBefore('+7 (999) 1', 4)).toBe(0)
    expect(inputDigitsBefore('+7 (999) 1', 5)).toBe(1)
    expect(inputDigitsBefore('+7 (999) 1', 10)).toBe(4)
    expect(inputDigitsBefore('+7 (999) 123-45-67', 99)).toBe(10)
  })
})

describe('toMaskedRuPhone', () => {
  it('shows nothing for an empty value', () => {
    expect(toMaskedRuPhone(null)).toBe('')
    expect(toMaskedRuPhone(undefined)).toBe('')
    expect(toMaskedRuPhone('')).toBe('')
  })

  it('keeps a value already in mask form, complete or not', () => {
    expect(toMaskedRuPhone('+7 (999) 123-45-67')).toBe('+7 (999) 123-45-67')
    expect(toMaskedRuPhone('+7 (99')).toBe('+7 (99')
  })

  it('formats a stored E.164 or national number', () => {
    expect(toMaskedRuPhone('+79991234567')).toBe('+7 (999) 123-45-67')
    expect(toMaskedRuPhone('8 999 123-45-67')).toBe('+7 (999) 123-45-67')
  })
})

describe('dropTypedTrunkPrefix', () => {
  it('drops an 8 or 7 typed out of habit before a mobile number', () => {
    expect(dropTypedTrunkPrefix('+7 (89')).toBe('+7 (9')
    expect(dropTypedTrunkPrefix('+7 (79')).toBe('+7 (9')
    expect(dropTypedTrunkPrefix('+7 (899) 912-34-56')).toBe('+7 (999) 123-45-6')
  })

  it('keeps codes that really start with 8 or 7 and everything else', () => {
    for (const value of ['+7 (812) 123-45-67', '+7 (8', '+7 (843', '+7 (700) 123', '+7 (999) 123-45-67', '']) {
      expect(dropTypedTrunkPrefix(value)).toBe(value)
    }
  })
})
