// The inbox at 100,000 leads (issue 27, decision 028): pages by (createdAt, id) that neither skip
// nor repeat a lead where many share a second, the search over all of them, and «Скачать CSV»
// streamed: every lead that is not spam in a file that arrives in pieces, never built whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminLeadPage } from '../../src/admin/admin-leads'
import { insertManyLeads, phoneOf } from '../helpers/many-leads'
import { buildAdminApp, removeDir, signIn, type AdminApp } from './admin-helpers'

const LEADS = 100_000
let site: AdminApp
let cookie: string
let real: number

beforeAll(async () => {
  site = await buildAdminApp()
  real = await insertManyLeads(site.app.db, LEADS)
  cookie = await signIn(site.app)
}, 300_000)

afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

async function inbox(query: string): Promise<AdminLeadPage> {
  const response = await site.app.inject({ url: `/api/admin/leads?${query}`, headers: { cookie } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<AdminLeadPage>()
}

describe('the inbox at 100,000 leads', () => {
  it('pages newest first by (createdAt, id): no lead skipped or repeated where ten share a second', async () => {
    const seen: number[] = []
    let after: string | undefined
    for (let i = 0; i < 4; i++) {
      const page = await inbox(`tab=new&pageSize=7${after ? `&after=${encodeURIComponent(after)}` : ''}`)
      expect(page.data).toHaveLength(7)
      seen.push(...page.data.map((lead) => lead.id))
      after = page.next?.after
      expect(after).toBeDefined()
    }
    // The newest 'new' leads that are not spam: n % 3 === 0 and n % 10 !== 9, counted down from the last.
    const expected: number[] = []
    for (let n = LEADS - 1; expected.length < 28; n--) if (n % 3 === 0 && n % 10 !== 9) expected.push(n + 1)
    expect(seen).toEqual(expected)
  })

  it('says there is no next page on the last one', async () => {
    const all = await inbox('tab=new&q=%D0%BF%D0%BE%D0%BA%D1%83%D0%BF%D0%B0%D1%82%D0%B5%D0%BB%D1%8C%2099996')
    expect(all.data.map((lead) => lead.username)).toEqual(['Покупатель 99996'])
    expect(all.next).toBeNull()
  })

  it('finds a lead among all of them by its phone typed another way', async () => {
    const digits = phoneOf(4242).replace(/\D/g, '').slice(1)
    const found = await inbox(`tab=new&q=${encodeURIComponent(`8 ${digits}`)}`)
    expect(found.data.map((lead) => lead.username)).toEqual(['Покупатель 4242'])
    expect(found.counts).toEqual({ new: 1, in_progress: 0, closed: 0, spam: 0 })
  })

  it('counts each tab up to 1,000 and says which have more, exactly below that', async () => {
    const page = await inbox('tab=closed')
    expect(page.counts).toEqual({ new: 1000, in_progress: 1000, closed: 1000, spam: 1000 })
    expect(page.countsOver).toEqual({ new: true, in_progress: true, closed: true, spam: true })
    expect(page.total).toBe(1000)
    // «Покупатель 99» matches leads 99, 990–999, 9900–9999 and 99000–99999: 1,111 in all.
    const found = await inbox(`tab=new&q=${encodeURIComponent('покупатель 99')}`)
    const expected = { new: 0, in_progress: 0, closed: 0, spam: 0 }
    for (let n = 0; n < LEADS; n++) {
      if (!`Покупатель ${n}`.startsWith('Покупатель 99')) continue
      const tab = n % 10 === 9 ? 'spam' : (['new', 'in_progress', 'closed'] as const)[n % 3]
      expected[tab]++
    }
    expect(found.counts).toEqual(expected)
    expect(found.countsOver).toEqual({ new: false, in_progress: false, closed: false, spam: false })
  })

  it('refuses a cursor it did not give, in Russian', async () => {
    const response = await site.app.inject({ url: '/api/admin/leads?after=abc', headers: { cookie } })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.message).toMatch(/after/)
  })

  it('streams the CSV of every lead that is not spam, in pieces, with no length known in advance', async () => {
    const response = await site.app.inject({
      url: '/api/admin/leads.csv',
      headers: { cookie },
      payloadAsStream: true,
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-length']).toBeUndefined()
    let chunks = 0
    let lines = 0
    let tail = ''
    for await (const chunk of response.stream() as AsyncIterable<Buffer>) {
      chunks++
      const text = tail + chunk.toString('utf8')
      const parts = text.split('\r\n')
      tail = parts.pop() ?? ''
      lines += parts.length
    }
    expect(tail).toBe('')
    expect(lines).toBe(real + 1) // the header and one line per lead
    expect(chunks).toBeGreaterThan(10)
  }, 120_000)
})
