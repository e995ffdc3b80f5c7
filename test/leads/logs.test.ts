// Nothing of a lead reaches the log except its id: the production server as a child process at
// LOG_LEVEL=info receives leads of every kind, and its whole output is searched for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'

let server: ProdServer

beforeAll(async () => {
  ensureBuild()
  server = await startProdServer({ LOG_LEVEL: 'info', LEAD_RATE_LIMIT: '5', LEAD_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

const NAME = 'Евлампия Христофоровна'
const PHONE_DIGITS = '9161234567'
const PHONE = '+7 (916) 123-45-67'
const EMAIL = 'evlampia.secret@example.ru'

async function post(body: string, type: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/feedback`, {
    method: 'POST',
    headers: { 'content-type': type, ...headers },
    body,
    redirect: 'manual',
  })
  await res.arrayBuffer()
  return res.status
}

describe('the server log', () => {
  it('holds the ids of stored leads and no name, phone or e-mail of any lead', async () => {
    const lead = { username: NAME, phone: PHONE, email: EMAIL, consent: true }
    const statuses = [
      await post(JSON.stringify(lead), 'application/json', {
        'x-forwarded-for': '203.0.113.1',
        referer: `${server.url}/?email=${EMAIL}`,
      }),
      await post(
        new URLSearchParams({ username: NAME, phone: PHONE, email: EMAIL, consent: 'on' }).toString(),
        'application/x-www-form-urlencoded',
      ),
      await post(JSON.stringify({ ...lead, email: 'not-an-email', extra: NAME }), 'application/json'),
      await post(`{"username":"${NAME}","phone":"${PHONE}"`, 'application/json'), // malformed: parse errors quote the body
      await post(JSON.stringify({ ...lead, username: NAME.repeat(2000) }), 'application/json'),
      await post(`username=${encodeURIComponent(NAME)}`, 'text/plain'),
    ]
    expect(statuses).toEqual([201, 303, 400, 400, 413, 429])
    // An admin looking a lead up by e-mail: the query string is not logged either.
    await fetch(
      `${server.url}/api/many/feedback?query=${encodeURIComponent(JSON.stringify({ where: { email: EMAIL } }))}`,
    )
    await server.stop('SIGTERM')
    const output = server.output()
    expect(output).toContain('"leadId"')
    for (const secret of [NAME, 'Евлампия', 'Христофоровна', EMAIL, 'evlampia', PHONE, PHONE_DIGITS, '916) 123']) {
      expect(output, secret).not.toContain(secret)
    }
    // Visitors' addresses are personal data too: requests are logged by method and URL only.
    expect(output).toContain('"url":"/api/feedback"')
    expect(output).not.toContain('remoteAddress')
    expect(output).not.toContain('203.0.113.1')
  })
})
