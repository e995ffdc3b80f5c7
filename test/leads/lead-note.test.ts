// The manager's note on a lead (issue 45, item 4), on SQLite and PostgreSQL: written with
// PATCH /api/admin/leads/{id} { note }, bounded and refused in Russian, shown in the inbox and the
// leads CSV («Заметка»), cleared with null or an empty text, and never told to a delivery channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { loadDeliverableLead } from '../../server/leads/store/lead-queries'
import { messageHtml, messageText } from '../../server/leads/delivery/channels/lead-message'
import { webhookPayload } from '../../server/leads/delivery/channels/webhook'
import { LEAD_NOTE_MAX } from '../../src/admin/admin-leads'

const ctx = { publicUrl: 'https://shop.example.ru', timeZone: 'Europe/Moscow' }
const NOTE = 'Перезвонить после 15:00;\nспросить про доставку «до двери»'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a manager's note on ${dialect.name}`, () => {
    let t: TestApp
    let leadId: number
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, LEAD_RATE_LIMIT: '0' })
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { username: 'Олег Петров', phone: '+7 (912) 000-11-22', email: 'oleg@example.ru', consent: true },
      })
      expect(res.statusCode, res.body).toBe(201)
      leadId = res.json().data.id
    })
    afterAll(() => t?.close())

    const patch = (payload: unknown, headers: Record<string, string> = AUTH) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/leads/${leadId}`, headers, payload: payload as object })

    it('keeps the note and shows it in the inbox', async () => {
      const res = await patch({ note: `  ${NOTE}  ` })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data.note).toBe(NOTE)
      const inbox = await t.app.inject({ url: '/api/admin/leads', headers: AUTH })
      expect(inbox.json().data.find((lead: { id: number }) => lead.id === leadId).note).toBe(NOTE)
    })

    it('refuses a note too long or not a text, in Russian, and changes nothing', async () => {
      const long = await patch({ note: 'я'.repeat(LEAD_NOTE_MAX + 1) })
      expect(long.statusCode).toBe(400)
      expect(long.json().errors.note).toBe(`Заметка длиннее ${LEAD_NOTE_MAX} символов`)
      const wrong = await patch({ note: 42 })
      expect(wrong.statusCode).toBe(400)
      expect(wrong.json().errors.note).toMatch(/^Заметка/)
      expect((await patch({ note: 'ю'.repeat(LEAD_NOTE_MAX) })).statusCode).toBe(200)
      expect((await patch({ note: NOTE })).json().data.note).toBe(NOTE)
      expect((await patch({ note: 'без входа' }, {})).statusCode).toBe(401)
    })

    it('puts the note into the leads CSV as «Заметка»', async () => {
      const csv = (await t.app.inject({ url: '/api/admin/leads.csv', headers: AUTH })).body
      expect(csv.split('\r\n')[0]).toMatch(/"Сумма";"Заметка"$/)
      expect(csv).toContain(`"${NOTE.replace(/"/g, '""')}"`)
    })

    it('never tells the note to a delivery channel', async () => {
      const lead = (await loadDeliverableLead(t.app.db, leadId))!
      expect(lead).not.toHaveProperty('note')
      for (const text of [messageText(lead, ctx), messageHtml(lead, ctx), JSON.stringify(webhookPayload(lead, ctx))]) {
        expect(text).not.toContain('Перезвонить')
      }
    })

    it('clears the note with null or an empty text', async () => {
      expect((await patch({ note: '   ' })).json().data.note).toBeNull()
      await patch({ note: NOTE })
      expect((await patch({ note: null })).json().data.note).toBeNull()
    })
  })
}
