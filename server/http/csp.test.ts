import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, newNonce } from './csp'

describe('newNonce', () => {
  it('gives 128 random bits in base64url, never the same twice across pool refills', () => {
    const nonces = Array.from({ length: 1000 }, () => newNonce())
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(new Set(nonces).size).toBe(nonces.length)
  })
})

describe('contentSecurityPolicy', () => {
  const scriptSources = (policy: string) => /script-src ([^;]*)/.exec(policy)![1].split(' ')

  it('allows the rendering’s nonce and no inline script by hash (the site writes none)', () => {
    const off = contentSecurityPolicy({ mediaUrl: '', metrikaId: null }, 'abc')
    expect(scriptSources(off)).toEqual(["'strict-dynamic'", "'nonce-abc'"])
    const on = contentSecurityPolicy({ mediaUrl: '', metrikaId: 12345678 }, 'abc')
    expect(scriptSources(on)).toEqual([
      "'strict-dynamic'",
      "'nonce-abc'",
      'https://mc.yandex.ru',
      'https://yastatic.net',
    ])
    expect(on).not.toMatch(/unsafe-inline|unsafe-eval/)
  })

  it('allows a counter script of another origin (METRIKA_TAG_URL) only while a counter is set', () => {
    const tag = 'http://127.0.0.1:4567/metrika/tag.js'
    const on = contentSecurityPolicy({ mediaUrl: '', metrikaId: 1, metrikaTagUrl: tag })
    expect(scriptSources(on)).toContain('http://127.0.0.1:4567')
    expect(on).toMatch(/img-src [^;]*http:\/\/127\.0\.0\.1:4567/)
    expect(on).toMatch(/connect-src [^;]*http:\/\/127\.0\.0\.1:4567/)
    const off = contentSecurityPolicy({ mediaUrl: '', metrikaId: null, metrikaTagUrl: tag })
    expect(off).not.toContain('127.0.0.1')
    expect(off).not.toContain('yandex')
  })
})

describe('the policy beyond scripts', () => {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const directive = (policy: string, name: string) =>
    policy
      .split('; ')
      .find((part) => part.startsWith(`${name} `))
      ?.split(' ')
      .slice(1)

  it("restricts every other kind to the site's own origin: default-src 'self', styles by origin", () => {
    const off = contentSecurityPolicy({ mediaUrl: '', metrikaId: null }, 'abc')
    expect(directive(off, 'default-src')).toEqual(["'self'"])
    expect(directive(off, 'style-src')).toEqual(["'self'"])
    expect(directive(off, 'frame-src')).toEqual(["'self'"])
    expect(directive(off, 'img-src')).toEqual(["'self'", 'data:'])
    expect(off).not.toMatch(/unsafe-inline|unsafe-eval|blob:|\*/)
  })

  it('lets images come from MEDIA_URL and Metrika show its frames only while a counter is set', () => {
    const on = contentSecurityPolicy({ mediaUrl: 'https://cdn.example.ru', metrikaId: 1 })
    expect(directive(on, 'img-src')).toContain('https://cdn.example.ru')
    expect(directive(on, 'frame-src')).toEqual(["'self'", 'https://mc.yandex.ru', 'https://mc.yandex.com'])
    expect(directive(on, 'default-src')).toEqual(["'self'"])
  })

  it('allows an inline style an answer names, by its hash, and no other', () => {
    const style = 'body{margin:0}'
    const policy = contentSecurityPolicy({ mediaUrl: '', metrikaId: null }, undefined, [style])
    expect(directive(policy, 'style-src')).toEqual(["'self'", hash(style)])
  })

  it("lets Vite's injected stylesheets apply in development only", () => {
    const dev = contentSecurityPolicy({ mediaUrl: '', metrikaId: null, isProduction: false }, 'abc')
    const prod = contentSecurityPolicy({ mediaUrl: '', metrikaId: null, isProduction: true }, 'abc')
    expect(directive(dev, 'style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive(prod, 'style-src')).toEqual(["'self'"])
  })
})
