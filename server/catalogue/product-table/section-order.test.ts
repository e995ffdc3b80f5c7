import { describe, expect, it } from 'vitest'
import { inTreeOrder } from './section-order'

const row = (id: number, parentId: number | null, sort: number, urlFull = `/s${id}`) => ({
  id,
  parentId,
  title: `Раздел ${id}`,
  urlFull,
  sort,
})

describe('the sections in the tree order', () => {
  it('puts each parent before its children, the children by sort, with their depth', () => {
    const rows = [row(5, 1, 2, '/a'), row(2, 100, 1, '/z'), row(1, 100, 0, '/y'), row(3, 1, 1, '/b'), row(4, 3, 0)]
    expect(inTreeOrder(rows).map((s) => [s.id, s.depth])).toEqual([
      [1, 0],
      [3, 1],
      [4, 2],
      [5, 1],
      [2, 0],
    ])
  })

  it('starts a branch at depth 0 for a section under a page that is not a section', () => {
    expect(inTreeOrder([row(7, null, 0), row(8, 42, 0)]).map((s) => s.depth)).toEqual([0, 0])
  })
})
