// The back office's «Характеристики» (issue 46, docs/decisions/042-characteristics-and-filters.md), owner only:
//   GET /api/admin/characteristics        every characteristic products carry, in the owner's order
//   PUT /api/admin/characteristics/{id}   the owner's choices: the name and unit shown, shown or
//                                         not, a filter or not, the order; every page is dropped
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { HttpError } from '../../http/http-error'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import {
  FILTER_KINDS,
  MAX_CHARACTERISTIC_TITLE,
  MAX_CHARACTERISTIC_UNIT,
  type Characteristic,
  type FilterKind,
  VENDOR_RANGE_ERROR,
} from '../../../src/catalogue/characteristics'
import { listCharacteristics, updateCharacteristic } from './characteristic-store'

type Change = Pick<Characteristic, 'title' | 'shownUnit' | 'shown' | 'filter' | 'sort'>

function changeFrom(body: unknown): Change {
  const input = (body ?? {}) as Record<string, unknown>
  const errors: Record<string, string> = {}
  const text = (name: string, max: number, required: boolean) => {
    const value = input[name]
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string' || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) {
      errors[name] = `Ожидается строка до ${max} символов`
      return ''
    }
    if (required && value.trim() === '') errors[name] = 'Укажите название'
    return value.trim()
  }
  const title = text('title', MAX_CHARACTERISTIC_TITLE, true)
  const shownUnit = text('shownUnit', MAX_CHARACTERISTIC_UNIT, false)
  if (typeof input.shown !== 'boolean') errors.shown = 'Ожидается «да» или «нет»'
  if (!(FILTER_KINDS as readonly unknown[]).includes(input.filter))
    errors.filter = 'Выберите «Нет», «Значения» или «Диапазон»'
  const sort = input.sort
  if (typeof sort !== 'number' || !Number.isInteger(sort) || Math.abs(sort) > 1_000_000)
    errors.sort = 'Ожидается целое число'
  if (Object.keys(errors).length > 0) throw new HttpError(400, 'Проверьте характеристику', 'validation_failed', errors)
  return { title, shownUnit, shown: input.shown === true, filter: input.filter as FilterKind, sort: sort as number }
}

export async function characteristicRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.characteristics), async (request) => {
    requireAdmin(await access(request))
    return { data: await listCharacteristics(app.db) }
  })

  app.put<{ Params: { id: string } }>(routeOf(app, ADMIN_API_PATHS.characteristic(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = /^[1-9]\d{0,9}$/.test(request.params.id) ? Number(request.params.id) : NaN
    const change = changeFrom(request.body)
    const outcome = Number.isFinite(id) ? await updateCharacteristic(app.writeDoor, id, change) : 'missing'
    if (outcome === 'missing') throw new HttpError(404, 'Нет такой характеристики', 'not_found')
    if (outcome === 'range')
      throw new HttpError(400, 'Проверьте характеристику', 'validation_failed', { filter: VENDOR_RANGE_ERROR })
    return { data: await listCharacteristics(app.db) }
  })
}
