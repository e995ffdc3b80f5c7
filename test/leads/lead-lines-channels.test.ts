// Every channel shows a lead's lines as they were when it was sent (docs/decisions/041-request-list.md),
// on SQLite and PostgreSQL: the e-mail (a table and the text part), Telegram (lines and total, no
// personal data), the webhook's JSON (rubles), the inbox API, the leads CSV and the order to 1C
// (one <Товар> per line with the copied price, quantity and sum; <Сумма> the total).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { enableExchange, EXCHANGE_ENV, injectTransport, OneCClient } from '../helpers/one-c'
import { loadDeliverableLead } from '../../server/leads/store/lead-queries'
import { messageHtml, messageTelegramPlainHtml, messageText } from '../../server/leads/delivery/channels/lead-message'
import { webhookPayload } from '../../server/leads/delivery/channels/webhook'
import { formatMoney, rublesDecimal } from '../../src/format/money'
import { ADMIN_PATHS } from '../../src/site/paths'

const ctx = { publicUrl: 'https://shop.example.ru', timeZone: 'Europe/Moscow' }
const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a lead's lines in every channel on ${dialect.name}`, () => {
    let t: TestApp
    let leadId: number
    let a: { id: number; title: string; price: number }
    let b: { id: number; title: string }
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV, LEAD_RATE_LIMIT: '0' })
      await enableExchange(t.app)
      const products = await t.app.db
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'structure.title', 'product.price'])
        .where('product.price', 'is not', null)
        .orderBy('structure.id')
        .limit(2)
        .execute()
      a = { id: products[0].id, title: products[0].title, price: products[0].price! + 90 }
      b = { id: products[1].id, title: products[1].title }
      // One line with kopecks, one «по запросу».
      await t.app.db.updateTable('product').set({ price: a.price }).where('structureId', '=', a.id).execute()
      await t.app.db.updateTable('product').set({ price: null }).where('structureId', '=', b.id).execute()
      t.app.content.invalidate()
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: {
          username: 'Анна Смирнова',
          phone: '+7 (912) 345-67-89',
          email: 'anna@example.ru',
          consent: true,
          lines: [
            { productId: a.id, quantity: 2 },
            { productId: b.id, quantity: 5 },
          ],
        },
      })
      expect(res.statusCode, res.body).toBe(201)
      leadId = res.json().data.id
      // Later changes must not show anywhere.
      await t.app.db.updateTable('product').set({ price: 1 }).where('structureId', '=', a.id).execute()
      await t.app.db.updateTable('structure').set({ title: 'Другое имя' }).where('id', '=', a.id).execute()
    })
    afterAll(() => t?.close())

    it('tells the lines in the e-mail, Telegram (without personal data) and the webhook', async () => {
      const lead = (await loadDeliverableLead(t.app.db, leadId))!
      expect(lead.total).toBeNull()
      const text = nbsp(messageText(lead, ctx))
      expect(text).toContain(`1. ${a.title}`)
      expect(text).toContain(`2 × ${nbsp(formatMoney(a.price))} = ${nbsp(formatMoney(a.price * 2))}`)
      expect(text).toContain(`2. ${b.title}`)
      expect(text).toContain('5 шт., цена по запросу')
      expect(text).toContain('Итого: по запросу')
      const html = messageHtml(lead, ctx)
      expect(html).toContain('<th align="left" style="padding:4px 8px;border:1px solid #d0d7de">Кол-во</th>')
      expect(html).toContain(ADMIN_PATHS.record(a.id))
      const telegram = nbsp(messageTelegramPlainHtml(lead, ctx))
      expect(telegram).toContain(a.title.replace(/&/g, '&amp;').replace(/"/g, '&quot;'))
      expect(telegram).toContain('Итого: по запросу')
      expect(telegram).not.toContain('Анна')
      expect(telegram).not.toContain('912')
      const payload = webhookPayload(lead, ctx)
      expect(payload.data.lines).toEqual([
        expect.objectContaining({
          productId: a.id,
          title: a.title,
          price: a.price / 100,
          quantity: 2,
          sum: (a.price * 2) / 100,
        }),
        expect.objectContaining({ productId: b.id, title: b.title, price: null, quantity: 5, sum: null }),
      ])
      expect(payload.data.total).toBeNull()
    })

    it('lists the lines in the leads CSV with «Товары» and «Сумма»', async () => {
      const res = await t.app.inject({ url: '/api/admin/leads.csv', headers: AUTH })
      expect(res.statusCode).toBe(200)
      const csv = nbsp(res.body)
      expect(csv).toContain('"Товары";"Сумма"')
      expect(csv).toContain(
        `${a.title.replace(/"/g, '""')} ×2 = ${nbsp(formatMoney(a.price * 2))}; ${b.title.replace(/"/g, '""')} ×5 = по запросу`,
      )
    })

    it('gives 1C one <Товар> per line at the price it was sent with', async () => {
      const sale = new OneCClient(injectTransport(t.app))
      expect((await sale.checkauth('sale')).lines[0]).toBe('success')
      await sale.init('sale')
      const answer = await sale.call('type=sale&mode=query')
      const document = answer.body.split('<Документ>').find((d) => d.includes(`<Номер>${leadId}</Номер>`))!
      const goods = document.match(/<Товар>.*?<\/Товар>/g) ?? []
      expect(goods).toHaveLength(2)
      expect(goods[0]).toContain(
        `<Наименование>${a.title.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}</Наименование>`,
      )
      expect(goods[0]).toContain(
        `<ЦенаЗаЕдиницу>${rublesDecimal(a.price)}</ЦенаЗаЕдиницу><Количество>2</Количество><Сумма>${rublesDecimal(a.price * 2)}</Сумма>`,
      )
      expect(goods[1]).toContain('<ЦенаЗаЕдиницу>0</ЦенаЗаЕдиницу><Количество>5</Количество><Сумма>0</Сумма>')
      expect(document).toContain(`<Курс>1</Курс><Сумма>${rublesDecimal(a.price * 2)}</Сумма>`)
    })
  })
}

describe('a Telegram message of a long list', () => {
  it('stays within the 4,096 characters Telegram takes, saying how many lines it left out', () => {
    const line = {
      title: 'Саморез по дереву с потайной головкой & шайбой '.repeat(3),
      article: 'А-1',
      price: 1,
      quantity: 9999,
      sum: 9999,
    }
    const lines = Array.from({ length: 100 }, (_, i) => ({ ...line, productId: i + 1 }))
    const lead = {
      id: 1,
      createdAt: '2026-11-29T09:00:00.000Z',
      username: 'Анна',
      phone: '+7 912 345-67-89',
      phoneE164: null,
      email: 'anna@example.ru',
      sourceUrl: '/moya-zayavka',
      productId: null,
      productTitle: null,
      utm: null,
      lines,
      total: 999_900,
    }
    const text = messageTelegramPlainHtml(lead, ctx)
    expect(text.length).toBeLessThan(4096)
    expect(text).toMatch(/…и ещё \d+/)
    expect(nbsp(text)).toContain('Итого: 9 999 ₽')
  })
})
