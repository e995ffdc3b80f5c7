import type { ErrorObject } from 'ajv'
import { describe, expect, it } from 'vitest'
import { fieldErrorsFromAjv, fieldOfAjvError, ROOT_ERROR_KEY } from './field-errors'

function error(partial: Partial<ErrorObject> & Pick<ErrorObject, 'keyword'>): ErrorObject {
  return { instancePath: '', schemaPath: '#', params: {}, ...partial }
}

describe('fieldOfAjvError', () => {
  it('files a missing property under its own name', () => {
    expect(fieldOfAjvError(error({ keyword: 'required', params: { missingProperty: 'phone' } }))).toBe('phone')
  })

  it('files an unknown property under its own name', () => {
    expect(fieldOfAjvError(error({ keyword: 'additionalProperties', params: { additionalProperty: 'x' } }))).toBe('x')
  })

  it('turns a nested JSON pointer into a dot path and unescapes it', () => {
    expect(fieldOfAjvError(error({ keyword: 'type', instancePath: '/items/0/a~1b~0c' }))).toBe('items.0.a/b~c')
  })

  it('files errors about the whole value under the root key', () => {
    expect(fieldOfAjvError(error({ keyword: 'type' }))).toBe(ROOT_ERROR_KEY)
  })
})

describe('fieldErrorsFromAjv', () => {
  it('keeps the first message of each field', () => {
    const errors = fieldErrorsFromAjv([
      error({ keyword: 'maxLength', instancePath: '/a', params: { limit: 3 } }),
      error({ keyword: 'format', instancePath: '/a', params: { format: 'email' } }),
    ])
    expect(errors).toEqual({ a: 'Не более 3 символов' })
  })

  it('lets «Поле обязательно» replace an earlier message of the same field', () => {
    const errors = fieldErrorsFromAjv([
      error({ keyword: 'maxLength', instancePath: '/a', params: { limit: 3 }, data: '     ' }),
      error({ keyword: 'pattern', instancePath: '/a', params: { pattern: '\\S' }, data: '     ' }),
    ])
    expect(errors).toEqual({ a: 'Поле обязательно' })
  })

  it('stores a field named __proto__ as a plain key', () => {
    const errors = fieldErrorsFromAjv([
      error({ keyword: 'additionalProperties', params: { additionalProperty: '__proto__' } }),
    ])
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype)
    expect(Object.keys(errors)).toEqual(['__proto__'])
  })
})
