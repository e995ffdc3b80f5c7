import { describe, expect, it } from 'vitest'
import {
  dropTypedTrunkPrefix,
  inputDigitsBefore,
  editRuPhone,
  stripRuCountryPrefix,
  toMaskedRuPhone,
} from './phone-mask'

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
  for (const pasted of [
    '8 999 123-45-67',
    '+79991234567',
    '89991234567',
    '79991234567',
    '+7 (999) 123-45-67',
    '9991234567',
  ]) {
    it(`shows «${pasted}» as +7 (999) 123-45-67`, () => {
      expect(editRuPhone('', 0, 0, 'insertFromPaste', pasted)?.value).toBe('+7 (999) 123-45-67')
      expect(toMaskedRuPhone(pasted)).toBe('+7 (999) 123-45-67')
    })
  }
})

/** Types `keys` one by one at the end of the field, as a person does. */
function typeKeys(keys: string, start = ''): string {
  let value = start
  for (const key of keys) value = editRuPhone(value, value.length, value.length, 'insertText', key)!.value
  return value
}

describe('editRuPhone', () => {
  it('formats digits typed one by one, keeping a first 8 that starts a code such as 812', () => {
    expect(typeKeys('8123456789')).toBe('+7 (812) 345-67-89')
    expect(typeKeys('7')).toBe('+7 (7')
  })

  it('drops a habitual trunk 8 or 7 typed before a mobile number', () => {
    expect(typeKeys('89991234567')).toBe('+7 (999) 123-45-67')
    expect(typeKeys('79161234567')).toBe('+7 (916) 123-45-67')
  })

  it('strips the prefix when text replaces the whole value, as autofill and paste do', () => {
    const filled = '+7 (111) 222-33-44'
    expect(editRuPhone(filled, 0, filled.length, 'insertFromPaste', '89991234567')).toEqual({
      value: '+7 (999) 123-45-67',
      caret: 18,
    })
    expect(editRuPhone('', 0, 0, 'insertText', '+7 916 123 45 67')?.value).toBe('+7 (916) 123-45-67')
  })

  it('keeps digits pasted after digits already entered, up to ten', () => {
    expect(editRuPhone('+7 (999', 7, 7, 'insertFromPaste', '1234567890')?.value).toBe('+7 (999) 123-45-67')
  })

  it('ignores letters and puts the caret after the inserted digits', () => {
    expect(editRuPhone('+7 (999) 12', 4, 4, 'insertText', 'a5')).toEqual({ value: '+7 (599) 912', caret: 5 })
  })

  it('deletes the digit before the caret with Backspace, skipping the mask characters', () => {
    expect(editRuPhone('+7 (999) 1', 10, 10, 'deleteContentBackward', '')).toEqual({ value: '+7 (999', caret: 7 })
    expect(editRuPhone('+7 (999) 1', 9, 9, 'deleteContentBackward', '')).toEqual({ value: '+7 (991', caret: 6 })
    expect(editRuPhone('+7 (9', 5, 5, 'deleteContentBackward', '')).toEqual({ value: '', caret: 4 })
    expect(editRuPhone('+7 (999) 123', 4, 4, 'deleteContentForward', '')?.value).toBe('+7 (991) 23')
  })

  it('deletes a selection, and everything behind the caret on a word deletion', () => {
    expect(editRuPhone('+7 (999) 123-45-67', 0, 18, 'deleteContentBackward', '')?.value).toBe('')
    expect(editRuPhone('+7 (999) 123', 12, 12, 'deleteWordBackward', '')?.value).toBe('')
  })

  it('leaves undo and redo to the browser', () => {
    expect(editRuPhone('+7 (999', 7, 7, 'historyUndo', '')).toBeNull()
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
