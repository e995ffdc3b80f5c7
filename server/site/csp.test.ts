import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { metrikaSnippet, SPECULATION_RULES } from '../../src/site/inline-scripts'
import { contentSecurityPolicy, newNonce } from './csp'

describe('newNonce', () => {
  it('gives 128 random bits in base64url, never the same twice across pool refills', () => {
    const nonces = Array.from({ length: 1000 }, () => newNonce())
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(new Set(nonces).size).toBe(nonces.length)
  })
})

describe('contentSecurityPolicy', () => {
  const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`
  const scriptSources = (policy: string) => /script-src ([^;]*)/.exec(policy)![1].split(' ')

  it('allows the rendering’s nonce and exactly the inline scripts the site writes, by hash', () => {
    const off = contentSecurityPolicy({ mediaUrl: '', metrikaId: null }, 'abc')
    expect(scriptSources(off)).toEqual(["'strict-dynamic'", "'nonce-abc'", hash(SPECULATION_RULES)])
    const on = contentSecurityPolicy({ mediaUrl: '', metrikaId: 12345678 }, 'abc')
    expect(scriptSources(on)).toEqual([
      "'strict-dynamic'",
      "'nonce-abc'",
      hash(SPECULATION_RULES),
      hash(metrikaSnippet(12345678)),
      'https://mc.yandex.ru',
      'https://yastatic.net',
    ])
    expect(on).not.toMatch(/unsafe-inline|unsafe-eval/)
  })
})
