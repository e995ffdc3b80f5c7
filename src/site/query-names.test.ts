import { describe, expect, it } from 'vitest'
import { compareNames, isDeclaredName } from './query-names'
import { parseSectionQuery, sectionSearch } from './section-query'

describe('declared query names', () => {
  it('admits a name or a member of a declared family, nothing else', () => {
    const declared = ['avail', 'f.', 'page']
    expect(isDeclaredName(declared, 'avail')).toBe(true)
    expect(isDeclaredName(declared, 'f.12')).toBe(true)
    expect(isDeclaredName(declared, 'f.')).toBe(false)
    expect(isDeclaredName(declared, 'f')).toBe(false)
    expect(isDeclaredName(declared, 'ref')).toBe(false)
    expect(isDeclaredName(declared, 'pag')).toBe(false)
  })
  it('orders names by code unit, equal ones in place', () => {
    const pairs = [
      ['f.3', 'b'],
      ['f.12', 'z'],
      ['f.12', 'a'],
    ]
    expect(pairs.sort(([a], [b]) => compareNames(a, b))).toEqual([
      ['f.12', 'z'],
      ['f.12', 'a'],
      ['f.3', 'b'],
    ])
  })
})

describe('filters by characteristic in a section query', () => {
  const canonical = (search: string) => sectionSearch(parseSectionQuery(new URLSearchParams(search)))
  it('spells values sorted and once, ranges as min-max, names in code unit order', () => {
    expect(canonical('f.3=b&f.12=Z&f.3=a&f.3=b')).toBe('?f.12=Z&f.3=a&f.3=b')
    expect(canonical('r.7=1500&r.7=800')).toBe('?r.7=800-1500')
    expect(canonical('r.7=0,5-')).toBe('?r.7=0.5-')
    expect(canonical('r.7=&r.7=2')).toBe('?r.7=-2')
    expect(canonical('r.7=&r.7=')).toBe('')
    expect(canonical('r.7=abc-x')).toBe('')
  })
  it('drops bad ids and empty values, and keeps at most 4 characteristics of the lowest ids', () => {
    expect(canonical('f.0=a&f.x=b&f.01=c&f.5=')).toBe('')
    expect(canonical('f.9=a&f.8=a&f.7=a&f.6=a&r.5=1-2')).toBe('?f.6=a&f.7=a&f.8=a&r.5=1-2')
  })
})
