import { describe, expect, it } from 'vitest'
import { oneCFieldsOf, overwriteWarning, overwrittenText } from './one-c-fields'

describe('the fields 1C overwrites', () => {
  it('asks about the price of a product whose price 1C overwrites', () => {
    expect(overwriteWarning(['price'], ['price', 'stock'])).toBe(
      'Цену этого товара перезапишет 1С при следующем обмене. Сохранить?',
    )
  })

  it('names every overwritten field a save changes, once, in the settings’ order', () => {
    expect(overwriteWarning(['description', 'price', 'images'], ['price', 'description', 'images'])).toBe(
      'Цену, описание и картинки этого товара перезапишет 1С при следующем обмене. Сохранить?',
    )
  })

  it('asks nothing for the site’s own product or a field 1C leaves alone', () => {
    expect(overwriteWarning(['price'], null)).toBeNull()
    expect(overwriteWarning(['price'], ['stock'])).toBeNull()
    expect(overwriteWarning([], ['price'])).toBeNull()
  })

  it('reads a list of fields in any order and case, and refuses a name it does not know', () => {
    expect(oneCFieldsOf('Images, price')).toEqual(['price', 'images'])
    expect(oneCFieldsOf('none')).toEqual([])
    expect(oneCFieldsOf('price,cost')).toBeNull()
  })

  it('says what 1C updates, or that it updates none of the five', () => {
    expect(overwrittenText(['price', 'stock'])).toBe('1С обновляет при каждом обмене: цена, остаток/наличие')
    expect(overwrittenText([])).toMatch(/^1С не перезаписывает/)
  })
})
