// «Товары» under /api/admin (session or admin token; docs/contract.md §7):
//   GET   /products?…            a page of products: filters, search, sort, keyset `after`
//   GET   /products/ids?…        the ids the filter matches (at most MAX_IDS): «все N по фильтру»
//   GET   /products/sections     the sections in the tree's order with their depth, for the filter and «Перенести»
//   PATCH /products/{id}         a price, an old price or the availability edited in place (400 for a
//                                product with variants: they set them)
//   (a variant's edit in place, and the editor's variants: variant-editor-routes.ts)
//   GET   /products/{id}/one-c   whether it comes from 1C, with the fields the exchange overwrites (the editor's mark)
//   POST  /products/actions      one batch (≤ ACTION_BATCH ids) of an action; the audit log grows
//   GET   /products/audit        the newest actions: when, who, what, how many
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import type { Availability } from '../../data/schema'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { auditActor, shownActor } from '../../admin/audit-actor'
import { AVAILABILITIES, idOf, invalid, money } from './admin-input'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { formatMoney, kopecksOfRubles, RUBLES_PATTERN } from '../../../src/format/money'
import { PRICE_ROUNDINGS, type PriceRounding } from './price-change'
import { sectionIds } from './product-filter'
import { inTreeOrder } from './section-order'
import { ACTION_BATCH, type ProductMark } from '../../../src/admin/admin-products'
import {
  ACTION_TITLES,
  applyAction,
  countChanges,
  editProduct,
  type InlineChange,
  type ProductAction,
} from './product-actions'
import { listProducts, productIds, productQueryOf } from './product-table'
import { oneCMark, overwrittenCount } from './one-c-mark'
import { variantCount } from './variant-table'

const MAX_IDS = 20_000

/** A product's price, old price or availability edited in place. */
function inlineChangeOf(body: unknown): InlineChange {
  const input = (body ?? {}) as Record<string, unknown>
  const change: { -readonly [K in keyof InlineChange]: InlineChange[K] } = {}
  if ('price' in input) change.price = money(input.price, 'price', 'Цена')
  if ('oldPrice' in input) change.oldPrice = money(input.oldPrice, 'oldPrice', 'Старая цена')
  if ('availability' in input) {
    if (!AVAILABILITIES.includes(input.availability as Availability)) invalid('availability', 'Выберите наличие')
    change.availability = input.availability as Availability
  }
  if (Object.keys(change).length === 0) invalid('price', 'Нечего сохранить')
  return change
}

function actionOf(input: Record<string, unknown>): ProductAction {
  switch (input.kind) {
    case 'publish':
    case 'hide':
    case 'withdraw':
    case 'delete':
      return { kind: input.kind }
    case 'move':
      if (typeof input.sectionId !== 'number' || !Number.isInteger(input.sectionId))
        invalid('sectionId', 'Выберите раздел')
      return { kind: 'move', sectionId: input.sectionId as number }
    case 'availability':
      if (!AVAILABILITIES.includes(input.availability as Availability)) invalid('availability', 'Выберите наличие')
      return { kind: 'availability', availability: input.availability as Availability }
    case 'price':
      return priceActionOf(input)
  }
  return invalid('kind', 'Неизвестное действие')
}

function priceActionOf(input: Record<string, unknown>): ProductAction {
  const percent = typeof input.percent === 'number' ? input.percent : undefined
  const amount = typeof input.amount === 'number' ? input.amount : undefined
  if ((percent === undefined) === (amount === undefined)) invalid('percent', 'Укажите процент или сумму')
  if (percent !== undefined && !(percent > -100 && percent <= 1000 && RUBLES_PATTERN.test(String(percent)))) {
    invalid('percent', 'Процент от −99,99 до 1000, не более 2 знаков после запятой')
  }
  const kopecks = amount === undefined ? undefined : kopecksOfRubles(Math.abs(amount))
  if (amount !== undefined && (kopecks === null || Math.abs(amount) > 10_000_000)) {
    invalid('amount', 'Сумма в рублях до 10 000 000, не более 2 знаков после запятой')
  }
  const rounding = input.rounding ?? 'ruble'
  if (!PRICE_ROUNDINGS.includes(rounding as PriceRounding)) invalid('rounding', 'Выберите округление')
  return {
    kind: 'price',
    keepOldPrice: input.keepOldPrice === true,
    ...(percent !== undefined
      ? { percent, rounding: rounding as PriceRounding }
      : { amount: Math.sign(amount!) * kopecks! }),
  }
}

const ROUNDING_TITLES: Record<PriceRounding, string> = {
  kopeck: 'до копейки',
  ruble: 'до рубля',
  ten: 'до 10 ₽',
  ninety: 'до …90 ₽',
}

function describe(action: ProductAction): string {
  const title = ACTION_TITLES[action.kind]
  if (action.kind === 'price') {
    const by =
      action.percent !== undefined
        ? `${action.percent > 0 ? '+' : ''}${action.percent} %, ${ROUNDING_TITLES[action.rounding ?? 'ruble']}`
        : `${action.amount! > 0 ? '+' : ''}${formatMoney(action.amount!)}`
    return `${title}: ${by}${action.keepOldPrice ? ', старая цена — прежняя' : ''}`
  }
  if (action.kind === 'availability') return `${title}: ${action.availability}`
  if (action.kind === 'move') return `${title}: id ${action.sectionId}`
  return title
}

export async function productTableRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.products), async (request) => {
    requireAdmin(await access(request))
    const query = productQueryOf(request.query as Record<string, unknown>)
    const overwrite = app.settings.current().exchangeOverwrite
    return listProducts(app.db, query, await sectionIds(app.db, query.section), overwrite)
  })

  app.get(routeOf(app, ADMIN_API_PATHS.productIds), async (request) => {
    requireAdmin(await access(request))
    const query = productQueryOf(request.query as Record<string, unknown>)
    const ids = await productIds(app.db, query, await sectionIds(app.db, query.section), MAX_IDS + 1)
    return { data: { ids: ids.slice(0, MAX_IDS), more: ids.length > MAX_IDS, batch: ACTION_BATCH } }
  })

  app.get(routeOf(app, ADMIN_API_PATHS.productSections), async (request) => {
    requireAdmin(await access(request))
    const rows = await app.db
      .selectFrom('structure')
      .select(['id', 'parentId', 'title', 'urlFull', 'sort'])
      .where('typeId', '=', 'section')
      .limit(5000)
      .execute()
    return { data: inTreeOrder(rows) }
  })

  app.patch<{ Params: { id: string } }>(routeOf(app, ADMIN_API_PATHS.product(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    await editProduct(app.writeDoor, id, inlineChangeOf(request.body))
    return { data: { id } }
  })

  app.get<{ Params: { id: string } }>(routeOf(app, ADMIN_API_PATHS.productOneC(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = /^[1-9]\d{0,9}$/.test(request.params.id) ? Number(request.params.id) : invalid('id', 'Неверный id')
    const mark: ProductMark = {
      oneC: await oneCMark(app.db, id, app.settings.current().exchangeOverwrite),
      variants: await variantCount(app.db, id),
    }
    return { data: mark }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.productActions), async (request) => {
    requireAdmin(await access(request))
    const body = (request.body ?? {}) as Record<string, unknown>
    const operation = typeof body.operation === 'string' && /^[\w-]{8,64}$/.test(body.operation) ? body.operation : null
    if (!operation) invalid('operation', 'Нет идентификатора действия')
    const ids = Array.isArray(body.ids) ? body.ids : []
    // A preview counts what the action would change, for the whole selection at once.
    const most = body.preview === true ? MAX_IDS : ACTION_BATCH
    if (ids.length === 0 || ids.length > most || !ids.every((id) => Number.isInteger(id) && id > 0)) {
      invalid('ids', `От 1 до ${most} товаров за запрос`)
    }
    const action = actionOf((body.action ?? {}) as Record<string, unknown>)
    if (body.preview === true) {
      const changes = await countChanges(app.db, ids as number[], action)
      const field = action.kind === 'price' ? 'price' : action.kind === 'availability' ? 'stock' : null
      const overwrite = app.settings.current().exchangeOverwrite
      return { data: { changes, oneC: await overwrittenCount(app.db, ids as number[], field, overwrite) } }
    }
    const changed = await applyAction(app.writeDoor, ids as number[], action)
    const at = new Date().toISOString()
    await app.db
      .insertInto('catalogueAudit')
      .values({
        operation: operation!,
        at,
        lastAt: at,
        who: auditActor(request),
        action: describe(action),
        count: changed,
      })
      .onConflict((oc) =>
        oc.column('operation').doUpdateSet((eb) => ({ lastAt: at, count: eb('catalogueAudit.count', '+', changed) })),
      )
      .execute()
    return { data: { changed } }
  })

  app.get(routeOf(app, ADMIN_API_PATHS.productAudit), async (request) => {
    requireAdmin(await access(request))
    const rows = await app.db
      .selectFrom('catalogueAudit')
      .select(['at', 'lastAt', 'who', 'action', 'count'])
      .orderBy('id', 'desc')
      .limit(50)
      .execute()
    return { data: rows.map((row) => ({ ...row, who: shownActor(row.who) })) }
  })
}
