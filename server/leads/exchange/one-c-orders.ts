// Leads into 1C as orders: the `type=sale` side of /1c/exchange (docs/decisions/032-1c-exchange.md).
// `query` answers a CommerceML document with a «Заказ товара» per lead 1C has not confirmed yet (the
// person as Контрагент, the product of the page it came from as a line, the source page and the
// advertising tags in the comment); `success` marks the leads that query gave as exported, so each
// lead reaches 1C once, and a repeated query before `success` gives the same leads again. Spam and
// leads whose personal data was erased are never exported. The document is built here and sent to
// 1C only: nothing of it is logged. `file` takes the orders 1C changed (issue 44): each lead 1C took
// shows 1C's status («1С: отгружен 28.11.2026»), its own status staying the owner's; an order the
// site never sent is skipped, with why, in the exchange's log.
import { rublesDecimal } from '../../../src/format/money'
import type { Db } from '../../data/db'
import type { SaleSide } from '../../catalogue/exchange/exchange-routes'
import { parseVisitTags } from '../store/stored-lead'
import { exportedLeads, leadsForOrders, markExported, setOneCStatuses, type OrderLead } from '../store/lead-orders'
import { lineTitle, linesOf, type LeadLine } from '../store/lead-lines'
import { parseCommerceMl, type CmlOrderChange } from '../../catalogue/exchange/commerceml'
import { logOrderChanges } from '../../catalogue/exchange/exchange-runs'

/** Leads per `query`: 1C asks again at its next exchange for the rest. */
export const ORDERS_PER_QUERY = 500

const escapeXml = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')

const element = (name: string, value: string | number) => `<${name}>${escapeXml(String(value))}</${name}>`

/** Date and time in the site's zone: 1C takes them as the shop's local time. */
function localParts(iso: string, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  )
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` }
}

/** A line of an order: 1C's Ид of the product (or the site's), its name, price and quantity. */
interface OrderLine {
  readonly externalId: string
  readonly title: string
  /** Whole kopecks; null: «по запросу» (0 for 1C) */
  readonly price: number | null
  readonly quantity: number
}

function goodsElement(line: OrderLine): string {
  const price = line.price ?? 0
  return [
    '<Товар>',
    element('Ид', line.externalId),
    element('Наименование', line.title),
    '<БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>',
    element('ЦенаЗаЕдиницу', rublesDecimal(price)),
    element('Количество', line.quantity),
    element('Сумма', rublesDecimal(price * line.quantity)),
    '<ЗначенияРеквизитов>',
    '<ЗначениеРеквизита><Наименование>ВидНоменклатуры</Наименование><Значение>Товар</Значение></ЗначениеРеквизита>',
    '<ЗначениеРеквизита><Наименование>ТипНоменклатуры</Наименование><Значение>Товар</Значение></ЗначениеРеквизита>',
    '</ЗначенияРеквизитов>',
    '</Товар>',
  ].join('')
}

/**
 * The «Заказ товара» of a lead: one `<Товар>` per line with the price copied when it was sent
 * (docs/decisions/041-request-list.md), `<Сумма>` the lead's total (the priced lines' sum while a
 * line is «по запросу»). A lead without lines orders the product of its page, one at today's price.
 */
function orderDocument(lead: OrderLead, lines: readonly OrderLine[], timeZone: string): string {
  const { date, time } = localParts(lead.createdAt, timeZone)
  const sum = lead.total ?? lines.reduce((total, line) => total + (line.price ?? 0) * line.quantity, 0)
  const tags = parseVisitTags(lead.utm)
  const comment = [
    `Заявка с сайта № ${lead.id}`,
    lead.sourceUrl ? `страница: ${lead.sourceUrl}` : null,
    tags
      ? `метки: ${Object.entries(tags)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ')}`
      : null,
  ]
    .filter(Boolean)
    .join('; ')
  const line = lines.length > 0 ? `<Товары>${lines.map(goodsElement).join('')}</Товары>` : ''
  return [
    '<Документ>',
    element('Ид', `vitrina-lead-${lead.id}`),
    element('Номер', lead.id),
    element('Дата', date),
    element('Время', time),
    element('ХозОперация', 'Заказ товара'),
    element('Роль', 'Продавец'),
    element('Валюта', 'руб'),
    element('Курс', 1),
    element('Сумма', rublesDecimal(sum)),
    '<Контрагенты><Контрагент>',
    element('Ид', `vitrina-person-${lead.id}`),
    element('Наименование', lead.username),
    element('ПолноеНаименование', lead.username),
    element('Роль', 'Покупатель'),
    '<Контакты>',
    `<Контакт>${element('Тип', 'Телефон рабочий')}${element('Значение', lead.phone)}</Контакт>`,
    `<Контакт>${element('Тип', 'Почта')}${element('Значение', lead.email)}</Контакт>`,
    '</Контакты>',
    '</Контрагент></Контрагенты>',
    line,
    element('Комментарий', comment),
    '</Документ>',
  ].join('')
}

/** What the inbox shows after «1С:» for an order 1C sent back; null when it says nothing of its state. */
export function oneCStatusOf(order: CmlOrderChange): string | null {
  if (order.cancelled) return 'отменён'
  if (order.shippedOn) return `отгружен ${order.shippedOn.split('-').reverse().join('.')}`
  // «[F] Выполнен» (the site's status code in brackets, as 1C keeps it): the name alone.
  const status = order.status?.replace(/^\[[^\]]*\]\s*/, '').trim()
  if (status) return status.slice(0, 200)
  if (order.posted) return 'проведён'
  return null
}

/** The lead an order names: the site's Ид (`vitrina-lead-N`), else its number; null for another's. */
function leadIdOf(order: CmlOrderChange): number | null {
  const raw = /^vitrina-lead-(\d{1,12})$/.exec(order.id ?? '')?.[1] ?? /^\d{1,12}$/.exec(order.number ?? '')?.[0]
  return raw === undefined ? null : Number(raw)
}

/** The leads of 1C's changed orders take their status; the rest are named in the exchange's log. */
async function takeChanges(db: Db, file: string, bytes: Buffer, now: Date): Promise<void> {
  const orders: CmlOrderChange[] = []
  await parseCommerceMl(
    (async function* () {
      yield bytes
    })(),
    async (items) => {
      for (const item of items) if (item.kind === 'order') orders.push(item.order)
    },
  )
  const ids = orders.flatMap((order) => leadIdOf(order) ?? [])
  const sent = await exportedLeads(db, ids)
  const statuses = new Map<number, string>()
  const skipped: { what: string; why: string }[] = []
  for (const order of orders) {
    const what = `Заказ ${order.number ?? order.id ?? 'без номера'}`
    const id = leadIdOf(order)
    const status = oneCStatusOf(order)
    if (id === null || !sent.has(id)) skipped.push({ what, why: 'этот заказ сайт в 1С не передавал' })
    else if (status === null) skipped.push({ what, why: '1С не сообщила статус заказа' })
    else statuses.set(id, status)
  }
  await setOneCStatuses(db, statuses, now.toISOString())
  await logOrderChanges(db, now, file, statuses.size, skipped)
}

type KnownProduct = { externalId: string | null; price: number | null; title: string }

/** The products the orders name, with 1C's Ид where the exchange knows it. */
async function orderProducts(db: Db, ids: readonly number[]): Promise<Map<number, KnownProduct>> {
  const products = new Map<number, KnownProduct>()
  const unique = [...new Set(ids)]
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .leftJoin('exchangeRecord', (join) =>
        join.onRef('exchangeRecord.structureId', '=', 'structure.id').on('exchangeRecord.kind', '=', 'product'),
      )
      .select(['structure.id', 'structure.title', 'product.price', 'exchangeRecord.externalId'])
      .where('structure.id', 'in', unique.slice(i, i + 500))
      .execute()
    for (const row of rows) products.set(row.id, { externalId: row.externalId, price: row.price, title: row.title })
  }
  return products
}

/** A lead's order lines: its own lines as sent, else the product of its page (one, at today's price). */
function orderLines(
  lead: OrderLead,
  lines: readonly LeadLine[],
  products: ReadonlyMap<number, KnownProduct>,
  variants: ReadonlyMap<number, string | null> = new Map(),
): OrderLine[] {
  const externalId = (id: number) => products.get(id)?.externalId ?? `site-${id}`
  // A variant from 1C is its characteristic: `<product Ид>#<characteristic Ид>` (decision 043).
  const lineId = (line: LeadLine) => {
    const own = line.variantId ? variants.get(line.variantId) : null
    const product = products.get(line.productId)?.externalId
    return own && product ? `${product}#${own}` : externalId(line.productId)
  }
  if (lines.length > 0) {
    return lines.map((line) => ({
      externalId: lineId(line),
      title: lineTitle(line),
      price: line.price,
      quantity: line.quantity,
    }))
  }
  if (lead.productId === null) return []
  const known = products.get(lead.productId)
  const title = known?.title ?? lead.productTitle
  return title ? [{ externalId: externalId(lead.productId), title, price: known?.price ?? null, quantity: 1 }] : []
}

/** The orders' side of the exchange over the leads of `db`. */
export function oneCOrders(db: Db, options: { readonly timeZone: string; readonly now: () => Date }): SaleSide {
  return {
    async query(sessionId) {
      const leads = await leadsForOrders(db, ORDERS_PER_QUERY)
      const lines = await linesOf(
        db,
        leads.map((l) => l.id),
      )
      const products = await orderProducts(db, [
        ...leads.flatMap((l) => (l.productId === null ? [] : [l.productId])),
        ...[...lines.values()].flat().map((line) => line.productId),
      ])
      const variantIds = [...lines.values()].flat().flatMap((line) => line.variantId ?? [])
      const variants = new Map<number, string | null>()
      for (let i = 0; i < variantIds.length; i += 500) {
        const rows = await db
          .selectFrom('productVariant')
          .select(['id', 'externalId'])
          .where('id', 'in', variantIds.slice(i, i + 500))
          .execute()
        for (const row of rows) variants.set(row.id, row.externalId)
      }
      await db
        .updateTable('exchangeSession')
        .set({ state: JSON.stringify({ saleOffered: leads.map((l) => l.id) }) })
        .where('id', '=', sessionId)
        .execute()
      const stamp = options.now().toISOString().slice(0, 19)
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.08" ДатаФормирования="${stamp}">`,
        ...leads.map((lead) =>
          orderDocument(lead, orderLines(lead, lines.get(lead.id) ?? [], products, variants), options.timeZone),
        ),
        '</КоммерческаяИнформация>',
        '',
      ].join('\n')
    },
    async confirm(sessionId) {
      const row = await db.selectFrom('exchangeSession').select('state').where('id', '=', sessionId).executeTakeFirst()
      const offered = (row?.state ? (JSON.parse(row.state) as { saleOffered?: number[] }).saleOffered : undefined) ?? []
      await markExported(db, offered, options.now().toISOString())
      await db.updateTable('exchangeSession').set({ state: null }).where('id', '=', sessionId).execute()
    },
    changes: (file, bytes) => takeChanges(db, file, bytes, options.now()),
  }
}
