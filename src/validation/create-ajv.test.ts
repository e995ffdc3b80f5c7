import { describe, expect, it } from 'vitest'
import { createAjv } from './create-ajv'

describe('createAjv', () => {
  it('reports every error, not only the first', () => {
    const validate = createAjv().compile({
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    })
    validate({})
    expect(validate.errors).toHaveLength(2)
  })

  it('neither coerces types nor drops extra properties nor fills defaults', () => {
    const validate = createAjv().compile({
      type: 'object',
      additionalProperties: false,
      properties: { n: { type: 'number' }, s: { type: 'string', default: 'x' } },
    })
    const data: Record<string, unknown> = { n: '1', extra: true }
    expect(validate(data)).toBe(false)
    expect(data).toEqual({ n: '1', extra: true })
  })

  it('keeps the failing value on each error for the message table', () => {
    const validate = createAjv().compile({ type: 'string' })
    validate(null)
    expect(validate.errors?.[0]).toHaveProperty('data', null)
  })

  it('refuses unknown keywords, as strict mode should', () => {
    expect(() => createAjv().compile({ type: 'string', maxlength: 3 })).toThrow()
  })

  it('uses the project e-mail rules for the email format', () => {
    const validate = createAjv().compile({ type: 'string', format: 'email' })
    expect(validate('иван@пример.рф')).toBe(true)
    expect(validate('a@localhost')).toBe(false)
  })

  it('still knows the other ajv-formats formats', () => {
    const validate = createAjv().compile({ type: 'string', format: 'date' })
    expect(validate('2025-01-31')).toBe(true)
    expect(validate('2025-02-30')).toBe(false)
  })
})
