import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from './password-hash'

describe('the owner password hash', () => {
  it('accepts the password it was made from and nothing else, in any Unicode form of it', async () => {
    const stored = await hashPassword('Пароль-владельца-ё')
    expect(await verifyPassword('Пароль-владельца-ё', stored)).toBe(true)
    // «ё» typed as «е» + combining diaeresis (a phone keyboard may send it so) is the same password.
    expect(await verifyPassword('Пароль-владельца-е\u0308', stored)).toBe(true)
    expect(await verifyPassword('Пароль-владельца-е', stored)).toBe(false)
    expect(await verifyPassword('', stored)).toBe(false)
  })

  it('salts each hash and keeps neither the password nor a plain digest of it', async () => {
    const [a, b] = [await hashPassword('одинаковый-пароль'), await hashPassword('одинаковый-пароль')]
    expect(a).not.toBe(b)
    expect(a).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{44}$/)
    expect(a).not.toContain('одинаковый-пароль')
  })

  it('refuses a damaged stored value and an overlong candidate without throwing', async () => {
    const stored = await hashPassword('правильный-пароль')
    const parts = stored.split('$')
    expect(await verifyPassword('правильный-пароль', 'plain-text')).toBe(false)
    expect(await verifyPassword('правильный-пароль', [...parts.slice(0, 5), 'AAAA'].join('$'))).toBe(false)
    expect(await verifyPassword('правильный-пароль', ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false)
    expect(await verifyPassword('x'.repeat(257), stored)).toBe(false)
  })
})
