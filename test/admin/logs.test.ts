// The back office's log at LOG_LEVEL=debug: sign-ins (right, wrong, limited), inbox searches and
// changes leave lines, but never the secret, the session cookie or anything of a lead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectOutput, tempDir } from '../helpers/build-test-app'
import {
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  buildAdminApp,
  removeDir,
  signIn,
  SITE,
  TestClock,
  type AdminApp,
} from './admin-helpers'

const log = collectOutput()
let site: AdminApp

beforeAll(async () => {
  site = await buildAdminApp(
    { LOG_LEVEL: 'debug', ADMIN_PASSWORD, LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' },
    tempDir('vitrina-admin-'),
    new TestClock(),
    log.out,
  )
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

describe('the log', () => {
  it('holds no secret, no cookie and no lead data', async () => {
    const lead = { username: 'Евпраксия Тихоновна', phone: '+7 916 765-43-21', email: 'evpraksia@example.ru' }
    const posted = await site.app.inject({ method: 'POST', url: '/api/feedback', payload: { ...lead, consent: true } })
    const id = posted.json<{ data: { id: number } }>().data.id
    for (let i = 0; i < 6; i++) {
      await site.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        headers: { origin: SITE },
        payload: { secret: `${ADMIN_PASSWORD}-${i}` },
        remoteAddress: '10.7.0.1',
      })
    }
    const cookie = await signIn(site.app, ADMIN_PASSWORD)
    const token = decodeURIComponent(cookie.slice('vitrina_admin='.length))
    for (const q of [lead.email, lead.username, '9167654321']) {
      await site.app.inject({ url: `/api/admin/leads?q=${encodeURIComponent(q)}`, headers: { cookie } })
    }
    await site.app.inject({
      method: 'PATCH',
      url: `/api/admin/leads/${id}`,
      headers: { cookie, origin: SITE },
      payload: { status: 'closed' },
    })
    await site.app.inject({ url: '/api/admin/leads.csv', headers: { cookie } })
    await site.app.inject({ url: '/api/many/feedback', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    await site.app.inject({ method: 'DELETE', url: '/api/admin/session', headers: { cookie, origin: SITE } })

    const text = log.text()
    expect(text).toContain('admin signed in')
    expect(text).toContain('admin sign-in refused')
    for (const secret of [ADMIN_PASSWORD, ADMIN_TOKEN, token, token.split('.')[0], token.split('.')[1]]) {
      expect(text).not.toContain(secret)
    }
    for (const value of [lead.username, lead.email, '765-43-21', '9167654321', 'evpraksia', 'Евпраксия']) {
      expect(text).not.toContain(value)
    }
    expect(text).not.toContain('10.7.0.1')
  })
})
