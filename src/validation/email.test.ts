import { describe, expect, it } from 'vitest'
import { isEmail } from './email'

// A domain of exactly `length` characters, in labels of at most 63.
function domainOfLength(length: number): string {
  const labels: string[] = []
  let left = length
  while (left > 0) {
    const label = Math.min(63, left === 64 ? 62 : left)
    labels.push('d'.repeat(label))
    left -= label + 1
  }
  const domain = labels.join('.')
  expect(domain).toHaveLength(length)
  return domain
}

function addressOfLength(length: number): string {
  const local = 'a'.repeat(64)
  return `${local}@${domainOfLength(length - local.length - 1)}`
}

describe('isEmail', () => {
  it('accepts ordinary Latin and Cyrillic addresses', () => {
    expect(isEmail('ivan@example.ru')).toBe(true)
    expect(isEmail('ivan.petrov+lead@mail.example.com')).toBe(true)
    expect(isEmail('иван@пример.рф')).toBe(true)
    expect(isEmail('Иван.Петров@почта.москва')).toBe(true)
  })

  it('accepts an address of 254 characters and rejects one of 255', () => {
    expect(isEmail(addressOfLength(254))).toBe(true)
    expect(isEmail(addressOfLength(255))).toBe(false)
  })

  it('accepts a local part of 64 bytes and rejects one of 65', () => {
    expect(isEmail(`${'a'.repeat(64)}@example.ru`)).toBe(true)
    expect(isEmail(`${'a'.repeat(65)}@example.ru`)).toBe(false)
  })

  it('counts the local part in UTF-8 bytes: 32 Cyrillic letters fit, 33 do not', () => {
    expect(isEmail(`${'я'.repeat(32)}@пример.рф`)).toBe(true)
    expect(isEmail(`${'я'.repeat(33)}@пример.рф`)).toBe(false)
    // 63 bytes of ASCII plus one 2-byte letter is 65 bytes, though only 64 characters.
    expect(isEmail(`${'a'.repeat(63)}я@example.ru`)).toBe(false)
  })

  it('needs exactly one @', () => {
    expect(isEmail('ivan.example.ru')).toBe(false)
    expect(isEmail('ivan@petrov@example.ru')).toBe(false)
  })

  it('needs a domain of at least two segments', () => {
    expect(isEmail('a@localhost')).toBe(false)
    expect(isEmail('a@example.ru')).toBe(true)
  })

  it('accepts a domain segment of 63 characters and rejects one of 64', () => {
    expect(isEmail(`a@${'d'.repeat(63)}.ru`)).toBe(true)
    expect(isEmail(`a@${'d'.repeat(64)}.ru`)).toBe(false)
  })

  it('checks no list of top-level domains', () => {
    expect(isEmail('a@example.invalidtld')).toBe(true)
    expect(isEmail('a@пример.онлайн')).toBe(true)
  })

  it('rejects empty parts, empty segments and stray spaces', () => {
    expect(isEmail('')).toBe(false)
    expect(isEmail('@example.ru')).toBe(false)
    expect(isEmail('a@')).toBe(false)
    expect(isEmail('a@.ru')).toBe(false)
    expect(isEmail('a@example.')).toBe(false)
    expect(isEmail('a@example..ru')).toBe(false)
    expect(isEmail('a..b@example.ru')).toBe(false)
    expect(isEmail('.a@example.ru')).toBe(false)
    expect(isEmail('a b@example.ru')).toBe(false)
    expect(isEmail(' a@example.ru')).toBe(false)
    expect(isEmail('a@example.ru ')).toBe(false)
  })

  it('rejects domain segments that start or end with a hyphen', () => {
    expect(isEmail('a@-example.ru')).toBe(false)
    expect(isEmail('a@example-.ru')).toBe(false)
    expect(isEmail('a@my-example.ru')).toBe(true)
  })
})
