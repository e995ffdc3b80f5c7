import { describe, expect, it } from 'vitest'
import { ANALYZE_AFTER, statisticsDue } from './write-door'

describe('statisticsDue', () => {
  it('refreshes at ANALYZE_AFTER items and then at each doubling, once each', () => {
    const points: number[] = []
    for (let before = 0, after = 250; after <= 110_000; before = after, after += 250) {
      if (statisticsDue(before, after)) points.push(after)
    }
    expect(points).toEqual([1, 2, 4, 8, 16, 32].map((k) => k * ANALYZE_AFTER))
  })

  it('refreshes once for a step that passes more than one point', () => {
    expect(statisticsDue(0, 10_000)).toBe(true)
    expect(statisticsDue(10_000, 15_000)).toBe(false)
    expect(statisticsDue(15_000, 16_000)).toBe(true)
  })
})
