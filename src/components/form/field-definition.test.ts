import { describe, expect, it } from 'vitest'
import { fieldKind } from './field-definition'

describe('fieldKind', () => {
  it('draws a textarea for type textarea and the phone input for tel', () => {
    expect(fieldKind('textarea')).toBe('textarea')
    expect(fieldKind('tel')).toBe('tel')
  })

  it('keeps the single-line input types', () => {
    for (const type of ['text', 'email', 'url', 'search', 'password']) expect(fieldKind(type)).toBe(type)
  })

  it('draws any other type as a text input', () => {
    expect(fieldKind('checkbox')).toBe('text')
    expect(fieldKind('number')).toBe('text')
    expect(fieldKind('')).toBe('text')
  })
})
