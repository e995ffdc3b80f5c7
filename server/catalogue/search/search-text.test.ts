import { describe, expect, it } from 'vitest'
import { articleKey, searchDocument, splitWords, tokenOf, tokensOf } from './search-text'

describe('the search normaliser', () => {
  it('lower-cases, reads ё as е and splits on anything but letters and digits', () => {
    expect(splitWords('Ёлка «Зелёная», 1,5 м/шт.')).toEqual(['елка', 'зеленая', '1', '5', 'м', 'шт'])
  })

  it('stems Russian words to one token per word, whatever the form', () => {
    expect(tokensOf('холодильника Холодильники холодильником')).toEqual(['холодильник', 'холодильник', 'холодильник'])
    expect(tokensOf('дрель Дрели дрелью')).toEqual(['дрел', 'дрел', 'дрел'])
    expect(tokensOf('Ёлка')).toEqual(tokensOf('елка'))
  })

  it('keeps Latin words and numbers as they are', () => {
    expect(tokensOf('Bosch GSR 120')).toEqual(['bosch', 'gsr', '120'])
  })

  it('folds Cyrillic look-alikes to Latin in words with a digit, never in plain Russian words', () => {
    expect(tokenOf('авс123')).toBe('abc123')
    expect(tokenOf('сок')).toBe('сок')
  })

  it('gives an артикул one key in any form', () => {
    const key = articleKey('ABC-123/45')
    expect(key).toBe('abc12345')
    for (const form of ['abc12345', 'АВС 123 45', 'a.b.c 12345', ' ABC_123-45 '])
      expect(articleKey(form), form).toBe(key)
    expect(articleKey('ЭИ-1003')).toBe(articleKey('эи1003'))
    expect(articleKey('эи1003')).toBe('эи1003')
    expect(articleKey('— / —')).toBeNull()
  })

  it("puts the title and артикул in the name, the rest in the body, and remembers each token's word", () => {
    const doc = searchDocument({
      title: 'Дрели ручные',
      article: 'ЗБ-5005',
      vendor: 'Зубр',
      description: 'Для дерева',
      properties: ['Сталь'],
    })
    expect(doc.name.split(' ')).toEqual(['дрел', 'ручн', 'зб', '5005', 'зб5005'])
    expect(doc.body.split(' ')).toEqual(['зубр', 'для', 'дерев', 'стал'])
    expect(doc.articleKey).toBe('зб5005')
    expect(doc.words.get('дрел')).toBe('дрели')
  })
})
