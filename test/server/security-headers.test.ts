// The headers that limit what a page may do, and the endpoint browsers report violations to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('security headers', () => {
  it('gives every page a strict script policy with a nonce its scripts carry', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/structure/' })
    const policy = String(page.headers['content-security-policy'])
    const nonce = /'nonce-([\w-]+)'/.exec(policy)?.[1]
    expect(nonce).toBeDefined()
    expect(page.body).toContain(`nonce="${nonce}"`)
    expect(policy).toContain("script-src 'strict-dynamic'")
    for (const directive of ["object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'self'"]) {
      expect(policy).toContain(directive)
    }
    // No script runs but by nonce or hash (development lets Vite's injected styles apply, no scripts).
    const scripts = /script-src [^;]*/.exec(policy)?.[0]
    expect(scripts).not.toMatch(/unsafe-inline|unsafe-eval/)
    expect(policy).not.toMatch(/unsafe-eval/)
    expect(policy).toContain('report-uri /api/csp-report')
    expect(page.headers['permissions-policy']).toContain('camera=()')
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(page.headers['strict-transport-security']).toContain('max-age=') // PUBLIC_URL is https
  })
})

describe('POST /api/csp-report', () => {
  const report = (body: string, type = 'application/csp-report') =>
    t.app.inject({ method: 'POST', url: '/api/csp-report', headers: { 'content-type': type }, payload: body })

  it('takes both report formats and answers 204', async () => {
    const single = JSON.stringify({
      'csp-report': {
        'document-uri': 'https://shop.example.ru/structure/?email=anna@example.ru',
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://evil.example/x.js?token=1',
      },
    })
    expect((await report(single)).statusCode).toBe(204)
    const list = JSON.stringify([
      { type: 'csp-violation', body: { effectiveDirective: 'img-src', blockedURL: 'inline' } },
    ])
    expect((await report(list, 'application/reports+json')).statusCode).toBe(204)
  })

  it('refuses a body over 8 KB and malformed JSON with a 4xx', async () => {
    expect((await report(JSON.stringify({ 'csp-report': { sample: 'x'.repeat(9000) } }))).statusCode).toBe(413)
    expect((await report('{not json')).statusCode).toBe(400)
  })

  it('is rate-limited per address', async () => {
    const answers = []
    for (let i = 0; i < 35; i++) answers.push((await report(JSON.stringify({ 'csp-report': {} }))).statusCode)
    expect(answers).toContain(429)
  })
})
