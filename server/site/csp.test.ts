import { describe, expect, it } from 'vitest'
import { newNonce } from './csp'

describe('newNonce', () => {
  it('gives 128 random bits in base64url, never the same twice across pool refills', () => {
    const nonces = Array.from({ length: 1000 }, () => newNonce())
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(new Set(nonces).size).toBe(nonces.length)
  })
})
