// Statuses back from 1C (issue 44, item 4): when 1C sends the orders changed in it
// (`type=sale&mode=file`, a CommerceML document per order), each lead the site gave 1C takes the
// order's status, shown in the inbox as «1С: отгружен 28.11.2026», and its own status stays the
// owner's; an order the site never sent is skipped, with why, in «Обмен с 1С»'s log. On SQLite and
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { enableExchange, EXCHANGE_ENV, injectTransport, OneCClient } from '../helpers/one-c'

const requisite = (name: string, value: string) =>
  `<ЗначениеРеквизита><Наименование>${name}</Наименование><Значение>${value}</Значение></ЗначениеРеквизита>`

/** A document of orders as 1C sends its changes back. */
const changes = (documents: { id?: string; number: string; requisites: [string, string][] }[]) =>
  Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_210" ВерсияСхемы="2.10" ДатаФормирования="2026-11-28T18:00:00">' +
      documents
        .map(
          (d) =>
            `<Документ>${d.id ? `<Ид>${d.id}</Ид>` : ''}<Номер>${d.number}</Номер><Дата>2026-11-27</Дата>` +
            `<ХозОперация>Заказ товара</ХозОперация><Роль>Продавец</Роль><Сумма>4990</Сумма>` +
            `<ЗначенияРеквизитов>${d.requisites.map(([n, v]) => requisite(n, v)).join('')}</ЗначенияРеквизитов></Документ>`,
        )
        .join('') +
      '</КоммерческаяИнформация>',
  )

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`statuses back from 1C on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV, LEAD_RATE_LIMIT: '0' })
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await t?.close()
    })

    const sendLead = async (email: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { 'content-type': 'application/json' },
        payload: { username: 'Иван Петров', phone: '+7 (999) 123-45-67', email, consent: true, sourceUrl: '/' },
      })
      expect(res.statusCode, res.body).toBeLessThan(300)
      const body: { data: { id: number } } = res.json()
      return body.data.id
    }
    /** Every lead of the inbox's tabs, by id, as the inbox API gives it. */
    const inbox = async () => {
      const out = new Map<number, { id: number; status: string; oneC: { status: string } | null }>()
      for (const tab of ['new', 'in_progress']) {
        const res = await t.app.inject({ url: `/api/admin/leads?tab=${tab}&pageSize=50`, headers: AUTH })
        expect(res.statusCode, res.body).toBe(200)
        const body: { data: { id: number; status: string; oneC: { status: string } | null }[] } = res.json()
        for (const lead of body.data) out.set(lead.id, lead)
      }
      return out
    }

    it('gives each lead 1C took the status 1C sends back, leaves the owner’s own, and logs the orders it skipped', async () => {
      const [shipped, cancelled, done] = [
        await sendLead('a@example.ru'),
        await sendLead('b@example.ru'),
        await sendLead('c@example.ru'),
      ]
      // The owner is already working on one of them.
      const owned = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/leads/${shipped}`,
        headers: AUTH,
        payload: { status: 'in_progress' },
      })
      expect(owned.statusCode, owned.body).toBe(200)

      const sale = new OneCClient(injectTransport(t.app))
      expect((await sale.checkauth('sale')).lines[0]).toBe('success')
      // Orders come back as one plain XML file.
      expect((await sale.init('sale')).lines[0]).toBe('zip=no')
      expect((await sale.call('type=sale&mode=query')).status).toBe(200)
      expect((await sale.call('type=sale&mode=success')).lines[0]).toBe('success')
      const notSent = await sendLead('d@example.ru')

      const answer = await sale.call(
        'type=sale&mode=file&filename=orders.xml',
        changes([
          {
            id: `vitrina-lead-${shipped}`,
            number: String(shipped),
            requisites: [
              ['Проведен', 'true'],
              ['Дата отгрузки', '2026-11-28T00:00:00'],
            ],
          },
          { number: String(cancelled), requisites: [['Отменен', 'true']] },
          { id: `vitrina-lead-${done}`, number: String(done), requisites: [['Статус заказа', '[F] Выполнен']] },
          { id: `vitrina-lead-${notSent}`, number: String(notSent), requisites: [['Проведен', 'true']] },
          { id: 'ЗК-000077', number: 'ЗК-77', requisites: [['Проведен', 'true']] },
        ]),
      )
      expect(answer.lines[0], answer.body).toBe('success')

      const leads = await inbox()
      expect(leads.get(shipped)).toMatchObject({ status: 'in_progress', oneC: { status: 'отгружен 28.11.2026' } })
      expect(leads.get(cancelled)).toMatchObject({ status: 'new', oneC: { status: 'отменён' } })
      expect(leads.get(done)?.oneC?.status).toBe('Выполнен')
      expect(leads.get(notSent)?.oneC).toBeNull()

      const log = await t.app.inject({ url: '/api/admin/exchange', headers: AUTH })
      const logged: { data: { runs: { tally: { ordersUpdated: number }; skipped: unknown[] }[] } } = log.json()
      const [run] = logged.data.runs
      expect(run.tally.ordersUpdated).toBe(3)
      expect(run.skipped).toEqual([
        { what: `Заказ ${notSent}`, why: 'этот заказ сайт в 1С не передавал' },
        { what: 'Заказ ЗК-77', why: 'этот заказ сайт в 1С не передавал' },
      ])

      // A later change moves the status on.
      const later = await sale.call(
        'type=sale&mode=file&filename=orders.xml',
        changes([{ id: `vitrina-lead-${done}`, number: String(done), requisites: [['Отменен', 'true']] }]),
      )
      expect(later.lines[0]).toBe('success')
      expect((await inbox()).get(done)?.oneC?.status).toBe('отменён')
    })

    it('answers a file it cannot read with failure and a Russian reason, and changes nothing', async () => {
      const sale = new OneCClient(injectTransport(t.app))
      await sale.checkauth('sale')
      await sale.init('sale')
      const broken = await sale.call(
        'type=sale&mode=file&filename=orders.xml',
        Buffer.from('<КоммерческаяИнформация><Документ>'),
      )
      expect(broken.lines[0]).toBe('failure')
      expect(broken.lines[1]).toMatch(/XML/)
      const empty = await sale.call('type=sale&mode=file&filename=orders.xml', Buffer.alloc(0))
      expect(empty.lines[0]).toBe('failure')
    })
  })
}
