import { describe, expect, it } from 'vitest'
import { fieldErrorText } from './field-error'

describe('fieldErrorText', () => {
  it('shows nothing when there is no error', () => {
    expect(fieldErrorText(undefined, 'string')).toBeUndefined()
    expect(fieldErrorText(null, 'string')).toBeUndefined()
    expect(fieldErrorText('', 'string')).toBeUndefined()
  })

  it('shows ready text as it came', () => {
    expect(fieldErrorText('Не удалось проверить адрес', 'string')).toBe('Не удалось проверить адрес')
  })

  it('looks an error type up under the field validator group', () => {
    expect(fieldErrorText({ type: 'max', limit: 190 }, 'string')).toBe('Не более 190 символов')
    expect(fieldErrorText({ type: 'email' }, 'string')).toBe('Некорректный адрес электронной почты')
  })

  it('finds the shared types without a validator', () => {
    expect(fieldErrorText({ type: 'required' })).toBe('Поле обязательно')
  })

  it('falls back to «Значение недопустимо» for an unknown type', () => {
    expect(fieldErrorText({ type: 'strange' }, 'string')).toBe('Значение недопустимо')
  })
})
