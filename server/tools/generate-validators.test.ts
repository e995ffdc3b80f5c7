import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { validateLead } from '../../src/lead/validate-lead'
import { createAjv } from '../../src/validation/create-ajv'
import { leadSchema } from '../../src/lead/lead-schema'
import { GENERATED_VALIDATORS, validatorsSource } from './generate-validators'

describe('the generated lead validators', () => {
  it('are current: generating again from the schemas gives the committed file (else run `npm run generate`)', () => {
    expect(fs.readFileSync(GENERATED_VALIDATORS, 'utf8')).toBe(validatorsSource())
  })

  it('need no schema compiler and no new Function at run time', () => {
    const code = fs.readFileSync(GENERATED_VALIDATORS, 'utf8')
    expect(code).not.toMatch(/new Function|\beval\(|from 'ajv'|require\(/)
  })

  it('judge leads exactly as a compiled validator of the same schema does', () => {
    const compiled = createAjv().compile(leadSchema)
    const samples: unknown[] = [
      {},
      null,
      'lead',
      { username: 'Анна', phone: '+7 912 345-67-89', email: 'anna@example.ru', consent: true },
      { username: ' ', phone: '8 912 345', email: 'анна@пример.рф', consent: false },
      { username: 'x'.repeat(191), phone: '+44 20 7946 0958', email: 'a@b', consent: true, extra: 1 },
      { username: '😀'.repeat(190), phone: '+7 (912) 345-67-89', email: 'ok@example.ru', consent: true },
    ]
    for (const sample of samples) {
      const ours = validateLead(sample)
      const expected = compiled(sample)
      expect(ours.ok, JSON.stringify(sample)).toBe(expected)
    }
  })
})
