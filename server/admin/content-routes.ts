// The back office's content tree at scale (issue 27, decision 028; docs/contract.md, "Back office"),
// for the owner only (session or token):
//   GET  /api/admin/content/children?parentId&skip&take   a page of a record's children (no parentId:
//                                                         the top level), each with its child count
//   POST /api/admin/content/:id/move   { parentId, keepUrl }   under another parent, URL kept or changed
//   POST /api/admin/content/:id/order  { direction: up|down } one place among its siblings
// Writes go through the write door: the content version, IndexNow, and the route map, the page
// cache and the API cache at once.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config/config'
import { HttpError } from '../http/http-error'
import { listChildren, moveAmongSiblings, moveRecord } from '../content/structure-tree'
import { createAdminCheck, requireAdmin } from './access'
import { routeOf } from '../http/route-path'
import { ADMIN_API_PATHS } from '../../src/site/paths'

/** Children in one answer: «Показать ещё 50» */
export const TREE_PAGE = 50
const MAX_TAKE = 200
const MAX_SKIP = 1_000_000
const MAX_ID = 2147483647

function integer(raw: unknown, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  const value = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : NaN
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, `Параметр ${name}: целое число от ${min} до ${max}`, 'invalid_query', {
      [name]: `Целое число от ${min} до ${max}`,
    })
  }
  return value
}

function recordId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > MAX_ID) throw new HttpError(404, 'Запись не найдена', 'not_found')
  return Number(raw)
}

function objectBody(body: unknown, expected: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, `Ожидается JSON-объект: ${expected.join(', ')}`, 'validation_failed')
  }
  const unknown = Object.keys(body).filter((key) => !expected.includes(key))
  if (unknown.length > 0) {
    throw new HttpError(
      400,
      `Неизвестные поля: ${unknown.join(', ')}`,
      'validation_failed',
      Object.fromEntries(unknown.map((key) => [key, 'Неизвестное поле'])),
    )
  }
  return body as Record<string, unknown>
}

export async function contentRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  app.addHook('onRequest', async (request) => requireAdmin(await access(request)))

  app.get(routeOf(app, ADMIN_API_PATHS.children), async (request) => {
    const query = request.query as Record<string, unknown>
    const parentId =
      query.parentId === undefined || query.parentId === '' ? null : integer(query.parentId, 'parentId', 0, 1, MAX_ID)
    const skip = integer(query.skip, 'skip', 0, 0, MAX_SKIP)
    const take = integer(query.take, 'take', TREE_PAGE, 1, MAX_TAKE)
    const { rows, total } = await listChildren(app.db, parentId, skip, take)
    const shown = skip + rows.length
    return { data: rows, total, next: shown < total && rows.length > 0 ? { skip: shown } : null }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.moveRecord(':id')), async (request) => {
    const id = recordId(request)
    const body = objectBody(request.body, ['parentId', 'keepUrl'])
    const errors: Record<string, string> = {}
    if (typeof body.parentId !== 'number' || !Number.isInteger(body.parentId) || body.parentId < 1) {
      errors.parentId = 'Выберите раздел'
    }
    if (typeof body.keepUrl !== 'boolean') errors.keepUrl = 'Укажите, сохранить ли адрес'
    if (Object.keys(errors).length > 0) {
      throw new HttpError(400, 'Не удалось перенести запись: проверьте поля', 'validation_failed', errors)
    }
    const result = await app.writeDoor.write((unit) =>
      moveRecord(unit, { id, parentId: body.parentId as number, keepUrl: body.keepUrl as boolean }),
    )
    return { data: { id, parentId: body.parentId, urlFull: result.urlFull } }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.orderRecord(':id')), async (request) => {
    const id = recordId(request)
    const body = objectBody(request.body, ['direction'])
    if (body.direction !== 'up' && body.direction !== 'down') {
      throw new HttpError(400, 'Направление: up или down', 'validation_failed', { direction: 'up или down' })
    }
    await app.writeDoor.write((unit) => moveAmongSiblings(unit, id, body.direction as 'up' | 'down'))
    return { data: { id } }
  })
}
