import { describe, expect, it } from 'vitest'
import { checkReads, isChangedFor, joinChanges, PageReads, recordTag, UncollectedReadError } from './page-tags'

describe('checkReads: a page that shows a record it did not collect fails in development', () => {
  const page = {
    id: 10,
    url: '/catalog/',
    title: 'Каталог',
    breadcrumbs: [{ title: 'Главная', url: '/' }],
    products: [
      { id: 11, url: '/catalog/drill', title: 'Дрель' },
      { id: 12, url: '/catalog/saw', title: 'Пила' },
    ],
    // Slides are the page's own parts: an id without a URL is not a record of its own.
    slides: [{ id: 1, image: 'a.svg', title: 'Слайд' }],
  }

  it('passes when every record shown was read', () => {
    const reads = new PageReads()
    for (const id of [10, 11, 12]) reads.record(id)
    expect(() => checkReads(page, reads)).not.toThrow()
  })

  it('throws, naming the record, when a card was not read', () => {
    const reads = new PageReads()
    reads.record(10)
    reads.record(11)
    expect(() => checkReads(page, reads)).toThrow(UncollectedReadError)
    expect(() => checkReads(page, reads)).toThrow(/record 12 \(\/catalog\/saw\)/)
  })
})

describe('isChangedFor', () => {
  const tags = new Set([recordTag(1), 'l5'])
  it('meets a page whose tags a write changed, and every page for a change of every page', () => {
    expect(isChangedFor(new Set([recordTag(1)]), tags)).toBe(true)
    expect(isChangedFor(new Set(['l5', 'r9', 'r10']), tags)).toBe(true)
    expect(isChangedFor(new Set([recordTag(2)]), tags)).toBe(false)
    expect(isChangedFor('every page', new Set())).toBe(true)
    expect(isChangedFor(new Set([recordTag(2)]), new Set())).toBe(false)
  })
  it('joins changes', () => {
    expect(joinChanges(new Set(['a']), new Set(['b']))).toEqual(new Set(['a', 'b']))
    expect(joinChanges(new Set(['a']), 'every page')).toBe('every page')
  })
})
