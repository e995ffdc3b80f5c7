import { describe, expect, it } from 'vitest'
import { cleanText, hasForbiddenCharacters } from './plain-text'

describe('the text rule', () => {
  it('refuses C0, C1, line separators and bidi controls, and lets tabs and line feeds into multi-line texts', () => {
    for (const char of [
      '\u0000',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
    ]) {
      expect(hasForbiddenCharacters(`ДУ${char}800`, 'single-line'), escape(char)).toBe(true)
      expect(hasForbiddenCharacters(`ДУ${char}800`, 'multi-line'), escape(char)).toBe(true)
    }
    expect(hasForbiddenCharacters('Строка 1\r\n\tСтрока 2', 'multi-line')).toBe(false)
    expect(hasForbiddenCharacters('Строка 1\nСтрока 2', 'single-line')).toBe(true)
    // Marks that are not controls stay: a zero-width space, the direction marks, an emoji.
    expect(hasForbiddenCharacters('a\u200bb\u200e\u200f😀', 'single-line')).toBe(false)
  })

  it('cleans a text from outside into one the rule takes', () => {
    expect(cleanText('  Дрель\u202e ударная\u0085\tДУ-800\u2028 ', 'single-line')).toBe('Дрель ударная ДУ-800')
    expect(cleanText('\u2066ДУ-800\u2069', 'single-line')).toBe('ДУ-800')
    expect(cleanText('Строка 1\u2028Строка 2\r\nСтрока\u0001 3\tконец', 'multi-line')).toBe(
      'Строка 1\nСтрока 2\nСтрока 3\tконец',
    )
    expect(cleanText('\u0001\u202e', 'single-line')).toBe('')
    // Clamped by code points, never leaving half a surrogate pair.
    expect(cleanText('😀😀😀', 'single-line', 2)).toBe('😀😀')
    for (const kind of ['single-line', 'multi-line'] as const) {
      const text = cleanText('a\u0000b\u0085c\u2029d\u202de\ud800f\u009fg\u2067h', kind)
      expect(hasForbiddenCharacters(text, kind), text).toBe(false)
    }
  })
})
