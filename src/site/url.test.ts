import { describe, expect, it } from 'vitest'
import { canonicalSpelling } from './url'

describe('canonicalSpelling', () => {
  it('decodes escapes of unreserved characters and keeps the query as it came', () => {
    expect(canonicalSpelling('/structure/%70ower-tools/')).toBe('/structure/power-tools/')
    expect(canonicalSpelling('/structure/%50%4F%57%45%52%2d%5F%2E%7e1')).toBe('/structure/POWER-_.~1')
    expect(canonicalSpelling('/structure/%70ower-tools/?sort=price&q=%70')).toBe(
      '/structure/power-tools/?sort=price&q=%70',
    )
  })

  it('writes other escapes in upper-case hex and never decodes them', () => {
    expect(canonicalSpelling('/%d0%ba%d0%b0%D1%82')).toBe('/%D0%BA%D0%B0%D1%82')
    expect(canonicalSpelling('/a%2fb%3fc%23d%25e%20f')).toBe('/a%2Fb%3Fc%23d%25e%20f')
    expect(canonicalSpelling('/a%2f%70')).toBe('/a%2Fp')
  })

  it('is null for a path spelled canonically already, whatever its query', () => {
    for (const target of [
      '/',
      '/structure/power-tools/',
      '/%D0%BA%D0%B0%D1%82',
      '/a%2Fb%25',
      '/?q=%70',
      '/a%zz',
      '/a%4',
    ]) {
      expect(canonicalSpelling(target), target).toBeNull()
    }
  })

  it('is null when the canonical spelling could lead to another path or host, or is not plain ASCII', () => {
    const targets = ['/a/%2E%2E/admin', '/a/%2e/b', '/%2e%2E', '//%65vil.example/', '/\\%65vil.example', '/дрель/%70']
    for (const target of targets) expect(canonicalSpelling(target), target).toBeNull()
  })
})
