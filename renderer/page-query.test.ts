import { describe, expect, it } from 'vitest'
import { strictQuery, UndeclaredQueryError, withDeclaredQuery } from './page-query'

const SECTION = ['avail', 'max', 'min', 'page', 'sort']

describe('withDeclaredQuery', () => {
  it('keeps the declared parameters as they were spelled and in their place, and drops the rest', () => {
    expect(withDeclaredQuery('/catalog/?utm_source=ya&page=02&ref=x&sort=price&page=3', SECTION)).toBe(
      '/catalog/?page=02&sort=price&page=3',
    )
    expect(withDeclaredQuery('/catalog/?ref=x&utm_source=ya', SECTION)).toBe('/catalog/')
    expect(withDeclaredQuery('/catalog/?', SECTION)).toBe('/catalog/')
    expect(withDeclaredQuery('/catalog/?page=2&&ref', SECTION)).toBe('/catalog/?page=2')
  })

  it('returns the URL itself when there is nothing to drop', () => {
    const url = '/catalog/?page=2&sort=name'
    expect(withDeclaredQuery(url, SECTION)).toBe(url)
    expect(withDeclaredQuery('/catalog/', [])).toBe('/catalog/')
  })

  it('reads a name as URLSearchParams does: percent-encoded, with +, or malformed', () => {
    expect(withDeclaredQuery('/s?%71=a&q%2B=b&my+q=c&%E0%A4%A=d', ['q', 'q+', 'my q'])).toBe('/s?%71=a&q%2B=b&my+q=c')
    expect(withDeclaredQuery('/s?%E0%A4%A=d', [new URLSearchParams('%E0%A4%A=d').keys().next().value!])).toBe(
      '/s?%E0%A4%A=d',
    )
  })

  it('keeps a hash and leaves a ? inside the hash alone', () => {
    expect(withDeclaredQuery('/s?q=a&x=1#top', ['q'])).toBe('/s?q=a#top')
    expect(withDeclaredQuery('/s#a?x=1', ['q'])).toBe('/s#a?x=1')
  })
})

describe('strictQuery', () => {
  const record: Record<string, string> = { page: '2' }
  const search = strictQuery(record, SECTION, '/pages/cms')

  it('answers the declared names, present or not', () => {
    expect(search.page).toBe('2')
    expect(search.sort).toBeUndefined()
    expect('page' in search).toBe(true)
    expect({ ...search }).toEqual({ page: '2' })
    expect(Object.keys(search)).toEqual(['page'])
    expect(JSON.stringify(search)).toBe('{"page":"2"}')
  })

  it('throws for an undeclared name however it is read, naming the page, the name and pageQuery', () => {
    expect(() => search.ref).toThrow(UndeclaredQueryError)
    expect(() => 'ref' in search).toThrow(UndeclaredQueryError)
    expect(() => Object.hasOwn(search, 'ref')).toThrow(UndeclaredQueryError)
    expect(() => search.ref).toThrow(
      '/pages/cms reads the query parameter "ref", which its pageQuery does not declare (avail, max, min, page, sort)',
    )
  })
})
