import { describe, expect, it } from 'vitest'
import { numericValue, suggestCharacteristic } from './characteristics'

describe('numericValue', () => {
  it('reads digits with a comma or a point and spaces between thousands', () => {
    expect(numericValue('1,2')).toBe(1.2)
    expect(numericValue(' 0.75 ')).toBe(0.75)
    expect(numericValue('1 200')).toBe(1200)
    expect(numericValue('800')).toBe(800)
  })
  it('is null for any other text', () => {
    for (const text of ['800 Вт', 'красный', '', '1e3', '0x10', '1,2,3', 'Infinity'])
      expect(numericValue(text)).toBeNull()
  })
})

describe('suggestCharacteristic', () => {
  it('offers the unit written into the name', () => {
    expect(suggestCharacteristic('Вес, кг', '')).toEqual({ title: 'Вес', unit: 'кг' })
    expect(suggestCharacteristic('Мощность (Вт)', '')).toEqual({ title: 'Мощность', unit: 'Вт' })
  })
  it('makes underscores spaces, a capitalised later word lower-case, an abbreviation kept', () => {
    expect(suggestCharacteristic('Габарит_Вес', '')).toEqual({ title: 'Габарит вес', unit: '' })
    expect(suggestCharacteristic('Код_ОЗОН', '')).toEqual({ title: 'Код ОЗОН', unit: '' })
  })
  it('offers nothing for a plain name, a stored unit, or what is already shown', () => {
    expect(suggestCharacteristic('Цвет', '')).toBeNull()
    expect(suggestCharacteristic('Размер, мм', 'см')).toBeNull()
    expect(suggestCharacteristic('Вес, кг', '', { title: 'Вес', shownUnit: 'кг' })).toBeNull()
    expect(suggestCharacteristic('Размер, 10', '')).toBeNull()
  })
})
