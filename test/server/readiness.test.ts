// /readyz tells anyone whether the site is ready, and only the owner what it runs and what waits
// (issue #21 item 7): the delivery channels, the backlog and the journal need the admin token or
// a back office session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, type AdminApp } from '../admin/admin-helpers'

let site: AdminApp
beforeAll(async () => {
  site = await buildAdminApp({
    LEAD_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
    LEAD_WEBHOOK_SECRET: `whsec_${Buffer.from('a readiness test secret, 24 bytes or more').toString('base64')}`,
  })
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

const readyz = (headers: Record<string, string> = {}) => site.app.inject({ url: '/readyz', headers })

describe('/readyz', () => {
  it('answers a stranger ready or not, and nothing else', async () => {
    const response = await readyz()
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.json()).toEqual({ status: 'ready' })
    for (const word of ['webhook', 'channels', 'pending', 'journal', 'Migrations']) {
      expect(response.body).not.toContain(word)
    }
  })

  it('shows the owner the channels, the backlog and the journal, by token or by session', async () => {
    const cookie = await signIn(site.app)
    const owners: Array<Record<string, string>> = [{ authorization: `Bearer ${ADMIN_TOKEN}` }, { cookie }]
    for (const headers of owners) {
      const response = await readyz(headers)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({
        status: 'ready',
        database: 'ok',
        pendingMigrations: 0,
        delivery: { channels: ['webhook'], pending: 0 },
        journal: { bytes: 0 },
      })
    }
  })

  it('shows a wrong token what it shows a stranger', async () => {
    const response = await readyz({ authorization: 'Bearer a-wrong-token-of-some-length' })
    expect(response.json()).toEqual({ status: 'ready' })
  })
})
