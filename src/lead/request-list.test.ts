import { describe, expect, it } from 'vitest'
import {
  changeRequestList,
  formatRequestList,
  parseRequestList,
  requestListCookie,
  requestListOfCookies,
  validQuantity,
} from './request-list'

describe('the request list cookie', () => {
  it('reads back what it writes', () => {
    const list = [
      { productId: 12, quantity: 2 },
      { productId: 45, quantity: 9999 },
    ]
    expect(parseRequestList(formatRequestList(list))).toEqual(list)
    expect(requestListOfCookies(`a=1; vitrina_list=${formatRequestList(list)}; b=2`)).toEqual(list)
  })

  it('drops malformed lines, keeps a repeated product once and stops at 100 lines', () => {
    expect(parseRequestList('12x2.bad.0x1.13x0.14x10000.12x5.15x1')).toEqual([
      { productId: 12, quantity: 2 },
      { productId: 15, quantity: 1 },
    ])
    const long = Array.from({ length: 150 }, (_, i) => `${i + 1}x1`).join('.')
    expect(parseRequestList(long)).toHaveLength(100)
  })

  it('adds to a listed quantity up to 9,999, sets, removes, and refuses a 101st line', () => {
    let list = changeRequestList([], { action: 'add', productId: 7, quantity: 9000 })
    list = changeRequestList(list as never, { action: 'add', productId: 7, quantity: 5000 })
    expect(list).toEqual([{ productId: 7, quantity: 9999 }])
    expect(changeRequestList(list as never, { action: 'set', productId: 7, quantity: 3 })).toEqual([
      { productId: 7, quantity: 3 },
    ])
    expect(changeRequestList(list as never, { action: 'remove', productId: 7 })).toEqual([])
    const full = Array.from({ length: 100 }, (_, i) => ({ productId: i + 1, quantity: 1 }))
    expect(changeRequestList(full, { action: 'add', productId: 500, quantity: 1 })).toBe('full')
    expect(changeRequestList(full, { action: 'add', productId: 1, quantity: 1 })).not.toBe('full')
  })

  it('takes quantities from 1 to 9,999 only', () => {
    expect(['1', ' 25 ', 9999].map(validQuantity)).toEqual([1, 25, 9999])
    expect(['0', '10000', '1.5', '-1', 'два', '', 2.5].map(validQuantity)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ])
  })

  it('clears itself when empty and is never HttpOnly (the header reads it)', () => {
    expect(requestListCookie([], false)).toBe('vitrina_list=; Max-Age=0; Path=/; SameSite=Lax')
    expect(requestListCookie([{ productId: 1, quantity: 2 }], true)).toMatch(
      /^vitrina_list=1x2; Max-Age=31536000; Path=\/; SameSite=Lax; Secure$/,
    )
  })
})
