import { describe, expect, it } from 'vitest'
import { discountPercent } from './catalogue'

describe('discountPercent', () => {
  it('rounds the discount to whole percent', () => {
    expect(discountPercent(7990, 9990)).toBe(20)
    expect(discountPercent(500, 1000)).toBe(50)
  })

  it('shows at least 1 % for a tiny discount', () => {
    expect(discountPercent(9999, 10000)).toBe(1)
  })

  it('shows no discount when the old price is not above the price or a price is missing', () => {
    expect(discountPercent(1000, 1000)).toBeNull()
    expect(discountPercent(1000, 900)).toBeNull()
    expect(discountPercent(null, 900)).toBeNull()
    expect(discountPercent(1000, null)).toBeNull()
  })
})
