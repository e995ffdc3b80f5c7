import { describe, expect, it } from 'vitest'
import { assignRef, classNames, fieldAria, fromFieldValue, toFieldValue } from './field-value'

describe('toFieldValue', () => {
  it('reports an empty input as null', () => {
    expect(toFieldValue('')).toBeNull()
  })

  it('keeps any other text, spaces included, for the validator to judge', () => {
    expect(toFieldValue('Иван')).toBe('Иван')
    expect(toFieldValue(' ')).toBe(' ')
  })
})

describe('fromFieldValue', () => {
  it('shows null and a missing value as the empty string', () => {
    expect(fromFieldValue(null)).toBe('')
    expect(fromFieldValue(undefined)).toBe('')
    expect(fromFieldValue('Иван')).toBe('Иван')
  })
})

describe('fieldAria', () => {
  it('adds nothing to a valid field without a hint', () => {
    expect(fieldAria('name', {})).toEqual({})
  })

  it('points at the hint', () => {
    expect(fieldAria('name', { hint: 'Как к вам обращаться' })).toEqual({ 'aria-describedby': 'name-hint' })
  })

  it('marks an invalid field and points at the error before the hint', () => {
    expect(fieldAria('name', { hint: 'Как к вам обращаться', error: 'Поле обязательно' })).toEqual({
      'aria-invalid': true,
      'aria-describedby': 'name-error name-hint',
    })
  })
})

describe('assignRef', () => {
  it('calls a callback ref and fills an object ref', () => {
    let received: string | null = null
    assignRef<string>((value) => {
      received = value
    }, 'input')
    expect(received).toBe('input')

    const ref = { current: null as string | null }
    assignRef(ref, 'input')
    expect(ref.current).toBe('input')
  })

  it('ignores a missing ref', () => {
    expect(() => assignRef(undefined, 'input')).not.toThrow()
  })
})

describe('classNames', () => {
  it('skips the classes whose condition is off', () => {
    expect(classNames('field', false, undefined, 'extra')).toBe('field extra')
  })
})
