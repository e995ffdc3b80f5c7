import { describe, expect, it } from 'vitest'
import type { CmlGroup } from './commerceml-records'
import {
  MAX_GROUP_DEPTH,
  boundedGroups,
  cmlDecimal,
  itemName,
  lastOfEach,
  cmlPrice,
  quantityProblem,
  type Refusal,
} from './commerceml-checks'

describe('cmlDecimal', () => {
  it('reads a plain decimal as 1C writes it, and nothing else', () => {
    expect(cmlDecimal('1 234,50')).toBe(1234.5)
    expect(cmlDecimal('4990.00')).toBe(4990)
    expect(cmlDecimal('-3')).toBe(-3)
    expect(cmlDecimal('\u00a0 ')).toBeUndefined()
    expect(cmlDecimal(null)).toBeUndefined()
    for (const raw of ['0x10', '1e308', 'Infinity', 'NaN', '1,2,3', '12abc', '9'.repeat(41)]) {
      expect(cmlDecimal(raw), raw).toBeNull()
    }
  })

  it('refuses a price that is not a decimal, negative or past the maximum, and a quantity past it', () => {
    expect(cmlPrice('0x10')).toEqual({ why: 'цена «0x10» не является десятичным числом' })
    expect(cmlPrice('1e308')).toEqual({ why: 'цена «1e308» не является десятичным числом' })
    expect(cmlPrice('-5')).toEqual({ why: 'цена -5 отрицательная' })
    expect(cmlPrice('3000000000')).toEqual({ why: 'цена 3000000000 больше 2 147 483 647 ₽' })
    expect(cmlPrice('0')).toEqual({ kopecks: 0 })
    // Kopecks are kept exactly; a fourth decimal rounds half up to the kopeck.
    expect(cmlPrice('1299.90')).toEqual({ kopecks: 129990 })
    expect(cmlPrice('1 299,9')).toEqual({ kopecks: 129990 })
    expect(cmlPrice('0.125')).toEqual({ kopecks: 13 })
    expect(quantityProblem('-7', -7)).toBeNull()
    expect(quantityProblem('1e3', null)).toMatch(/не является десятичным числом/)
  })
})

describe('lastOfEach', () => {
  it('keeps the last item of each Ид where it stands and names the earlier ones', () => {
    const refused: Refusal[] = []
    const items = [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'a', n: 3 },
    ]
    expect(lastOfEach(items, (i) => itemName('Товар', i.id, `n${i.n}`), 'повтор', refused)).toEqual([
      { id: 'b', n: 2 },
      { id: 'a', n: 3 },
    ])
    expect(refused).toEqual([{ what: 'Товар a «n1»', why: 'повтор' }])
  })
})

describe('boundedGroups', () => {
  const group = (id: string, parentId: string | null): CmlGroup => ({ id, name: `Группа ${id}`, parentId })

  it('puts a group past the depth under its ancestor at the deepest level, without recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => group(`g${i + 1}`, i === 0 ? null : `g${i}`))
    const refused: Refusal[] = []
    const { groups, alias } = boundedGroups(chain, refused)
    expect(groups.map((g) => g.id)).toEqual(chain.slice(0, MAX_GROUP_DEPTH).map((g) => g.id))
    expect(alias.g11).toBe('g10')
    expect(alias.g20000).toBe('g10')
    expect(refused).toHaveLength(20_000 - MAX_GROUP_DEPTH)
    expect(refused[0]).toEqual({
      what: 'Группа g11 «Группа g11»',
      why: `группа глубже ${MAX_GROUP_DEPTH} уровней: её товары в разделе группы g10`,
    })
  })

  it('orders parents first after duplicates and breaks a loop they make', () => {
    // b's last copy sits under c, which comes later; a loop: x under y, y under x.
    const refused: Refusal[] = []
    const { groups } = boundedGroups(
      [group('a', null), group('b', 'a'), group('c', 'a'), group('b', 'c'), group('x', 'y'), group('y', 'x')],
      refused,
    )
    const at = (id: string) => groups.findIndex((g) => g.id === id)
    expect(groups.map((g) => g.id).sort()).toEqual(['a', 'b', 'c', 'x', 'y'])
    expect(groups[at('b')].parentId).toBe('c')
    expect(at('c')).toBeLessThan(at('b'))
    for (const g of groups) if (g.parentId !== null) expect(at(g.parentId), g.id).toBeLessThan(at(g.id))
    expect(groups.filter((g) => g.id === 'x' || g.id === 'y').some((g) => g.parentId === null)).toBe(true)
    expect(refused).toEqual([{ what: 'Группа b «Группа b»', why: expect.stringMatching(/Ид повторяется/) }])
  })
})
