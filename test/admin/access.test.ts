// The session is the bearer token's equal and no more: every state-changing admin or API request
// without a session is refused with 401, with a session but a foreign or missing Origin with 403,
// and with a session from the site itself it does what the token does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, SITE, type AdminApp } from './admin-helpers'

let site: AdminApp
let cookie: string
let leadId: number

beforeAll(async () => {
  site = await buildAdminApp({ LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
  cookie = await signIn(site.app)
  const lead = await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Гликерия', phone: '+7 912 000-11-22', email: 'glikeria@example.ru', consent: true },
  })
  leadId = lead.json().data.id
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

/** Every state-changing request the back office can make, as a browser would send it. */
function actions() {
  const structure = () =>
    multipartBody({
      data: JSON.stringify({
        typeId: 'page',
        title: 'Акции',
        urlFull: `/akcii-${Math.random().toString(36).slice(2)}`,
      }),
    })
  return [
    { name: 'create a record', method: 'POST', url: () => '/api/structure', body: structure },
    {
      name: 'change a record',
      method: 'PATCH',
      url: () => '/api/structure',
      body: () => multipartBody({ data: JSON.stringify({ id: 1, title: 'Витрина' }) }),
    },
    {
      name: 'change a lead',
      method: 'PATCH',
      url: () => `/api/admin/leads/${leadId}`,
      body: () => ({ payload: { status: 'in_progress' }, headers: {} }),
    },
    {
      name: 'resend a lead',
      method: 'POST',
      url: () => `/api/admin/leads/${leadId}/resend`,
      body: () => ({ payload: undefined, headers: {} }),
    },
    {
      name: 'retry deliveries',
      method: 'POST',
      url: () => '/api/deliveries/retry',
      body: () => ({ payload: { dead: true }, headers: {} }),
    },
  ] as const
}

async function send(action: ReturnType<typeof actions>[number], headers: Record<string, string>) {
  const { payload, headers: bodyHeaders } = action.body()
  return site.app.inject({ method: action.method, url: action.url(), payload, headers: { ...bodyHeaders, ...headers } })
}

describe('state-changing requests', () => {
  for (const action of actions()) {
    it(`${action.name}: 401 without a session, 403 from a foreign or no Origin, done with a session from the site`, async () => {
      const anonymous = await send(action, { origin: SITE })
      expect(anonymous.statusCode).toBe(401)
      expect(anonymous.json().error.message).toMatch(/^Нужна авторизация/)
      for (const origin of ['https://evil.example.com', 'http://shop.example.ru', 'null', undefined]) {
        const foreign = await send(action, origin === undefined ? { cookie } : { cookie, origin })
        expect(foreign.statusCode, String(origin)).toBe(403)
        expect(foreign.json().error.message).toBe('Запрос с чужого сайта отклонён')
      }
      const own = await send(action, { cookie, origin: SITE })
      expect(own.statusCode, own.body).toBeLessThan(300)
      // The bearer token needs no Origin (the command-line tools send none).
      const token = await send(action, { authorization: `Bearer ${ADMIN_TOKEN}` })
      expect(token.statusCode, token.body).toBeLessThan(300)
    })
  }

  it('accepts the Origin of the host the request was sent to, as well as PUBLIC_URL', async () => {
    const response = await site.app.inject({
      method: 'PATCH',
      url: `/api/admin/leads/${leadId}`,
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { status: 'new' },
    })
    expect(response.statusCode).toBe(200)
  })

  it('a foreign-Origin write changes nothing', async () => {
    const before = await site.app.db
      .selectFrom('feedback')
      .select('status')
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow()
    await site.app.inject({
      method: 'PATCH',
      url: `/api/admin/leads/${leadId}`,
      headers: { cookie, origin: 'https://evil.example.com' },
      payload: { status: before.status === 'closed' ? 'new' : 'closed' },
    })
    const after = await site.app.db
      .selectFrom('feedback')
      .select('status')
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow()
    expect(after.status).toBe(before.status)
  })
})

describe('reads', () => {
  it('a session reads what the token reads: leads, deliveries, unpublished records', async () => {
    const record = await site.app.db
      .selectFrom('structure')
      .select('id')
      .where('parentId', 'is not', null)
      .executeTakeFirstOrThrow()
    await site.app.db.updateTable('structure').set({ published: 0 }).where('id', '=', record.id).execute()
    for (const url of [
      '/api/many/feedback',
      '/api/deliveries?status=pending,dead,sent',
      '/api/admin/leads',
      '/api/admin/leads/latest',
      '/api/admin/leads.csv',
    ]) {
      expect((await site.app.inject({ url })).statusCode, url).toBe(401)
      const withSession = await site.app.inject({ url, headers: { cookie } })
      expect(withSession.statusCode, url).toBe(200)
      expect(withSession.headers['cache-control'], url).toMatch(/no-store/)
    }
    const query = encodeURIComponent(JSON.stringify({ where: { id: record.id }, select: { id: true } }))
    const anonymous = await site.app.inject({ url: `/api/many/structure?query=${query}` })
    const owner = await site.app.inject({ url: `/api/many/structure?query=${query}`, headers: { cookie } })
    expect(owner.json().data, owner.body).toEqual([{ id: record.id }])
    expect(anonymous.json().data, anonymous.body).toEqual([])
  })

  it('a session is not a bearer token: the cookie in an Authorization header means nothing', async () => {
    const value = cookie.slice('vitrina_admin='.length)
    const response = await site.app.inject({ url: '/api/many/feedback', headers: { authorization: `Bearer ${value}` } })
    expect(response.statusCode).toBe(403)
  })
})
