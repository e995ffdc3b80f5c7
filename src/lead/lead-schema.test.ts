import { describe, expect, it } from 'vitest'
import { createAjv } from '../validation/create-ajv'
import { LEAD_LABELS, LEAD_LIMITS } from './lead'
import { LEAD_FORM_FIELDS } from './lead-fields'
import { LEAD_FIELD_NAMES, LEAD_TEXT_FIELD_NAMES, leadRequestSchema, leadSchema } from './lead-schema'

const lead = { username: 'Иван', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true }

describe('leadSchema', () => {
  it('requires exactly the listed fields and allows no others', () => {
    expect([...leadSchema.required]).toEqual([...LEAD_FIELD_NAMES])
    expect(Object.keys(leadSchema.properties)).toEqual([...LEAD_FIELD_NAMES])
    expect(leadSchema.additionalProperties).toBe(false)
  })

  it('takes its length limits from LEAD_LIMITS', () => {
    for (const field of LEAD_TEXT_FIELD_NAMES) {
      expect(leadSchema.properties[field].maxLength).toBe(LEAD_LIMITS[field])
    }
  })

  it('compiles in strict mode', () => {
    expect(() => createAjv().compile(leadSchema)).not.toThrow()
  })
})

describe('leadRequestSchema', () => {
  const validate = createAjv().compile(leadRequestSchema)

  it('accepts a lead with the honeypot and the fill-time token', () => {
    expect(validate({ ...lead, website: '', formStartedAt: 1_700_000_000_000 })).toBe(true)
  })

  it('accepts a lead without the transport fields', () => {
    expect(validate(lead)).toBe(true)
  })

  it('lets a filled honeypot through, so the route can answer a bot with a fake success', () => {
    expect(validate({ ...lead, website: 'http://spam.example' })).toBe(true)
  })

  it('rejects a fill-time token that is not a number', () => {
    expect(validate({ ...lead, formStartedAt: '1700000000000' })).toBe(false)
  })

  it('still rejects other unknown fields and keeps the lead rules', () => {
    expect(validate({ ...lead, comment: 'x' })).toBe(false)
    expect(validate({ ...lead, username: '' })).toBe(false)
  })

  it('does not change the lead schema it extends', () => {
    expect(Object.keys(leadSchema.properties)).toEqual([...LEAD_FIELD_NAMES])
  })
})

describe('lead labels and form fields', () => {
  it('shows the spec labels', () => {
    expect(LEAD_LABELS).toEqual({
      username: 'Ваше имя',
      phone: 'Ваш телефон',
      email: 'Ваш E-mail',
      consent: 'Я даю согласие на обработку персональных данных',
    })
  })

  it('lists the text fields in schema order with the phone drawn as tel', () => {
    expect(LEAD_FORM_FIELDS.map((field) => field.id)).toEqual([...LEAD_TEXT_FIELD_NAMES])
    expect(LEAD_FORM_FIELDS.find((field) => field.id === 'phone')?.type).toBe('tel')
  })
})
