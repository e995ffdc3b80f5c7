// The generic per-model API (docs/contract.md §3), mounted under /api:
//   GET /:model (first match), GET /many/:model, GET /provider/:model (`{ id, title }` options),
//   POST /:model and PATCH /:model (multipart: `data` JSON plus files by dot path; admin token),
//   DELETE /structure?id=N (admin token; the URL then answers 410).
// Encapsulated: its multipart parser, error handler and read cache stay inside this plugin.
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from '../config/config'
import { createErrorHandler } from '../http/errors'
import { HttpError } from '../http/http-error'
import { IMAGE_LIMITS } from '../media/image-store'
import { storeUpload } from '../media/store-upload'
import { parseQuery } from '../../src/api/query-string'
import { createAdminCheck, requireAdmin } from '../admin/access'
import { deleteStructureRecord, parseDeleteId } from './deletes'
import { executePage } from './query-executor'
import { parseModelQuery, parseQueryParameter, type QueryContext, type SelectNode } from './query-parser'
import { READ_CACHE_LIMITS, ReadCache, staleSeconds } from './read-cache'
import { findModel, type ModelDef } from './registry'
import { imagePathPatterns, validateWrite, type WriteMode } from './write-schema'
import { readRecord, writeRecord } from './writes'
import { multipartError, readMultipartWrite } from '../media/multipart-write'
import { batchRoute } from './batch-route'

interface ModelRoutesOptions {
  readonly config: Config
}

const MULTIPART_LIMITS = Object.freeze({
  fileSize: IMAGE_LIMITS.maxBytes,
  files: 100,
  fields: 4,
  parts: 104,
  fieldSize: 1024 * 1024,
  fieldNameSize: 200,
  headerPairs: 100,
})

type ReadKind = 'one' | 'many' | 'provider'

const JSON_TYPE = 'application/json; charset=utf-8'

function unknownModel(): never {
  throw new HttpError(404, 'Неизвестная модель', 'not_found')
}

function parseTtl(raw: unknown): number {
  if (raw === undefined || raw === '') return 0
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) {
    throw new HttpError(400, 'Параметр ttl должен быть целым числом секунд', 'invalid_query', {
      ttl: 'Ожидается целое число секунд',
    })
  }
  return Math.min(Number(raw), READ_CACHE_LIMITS.maxTtlSeconds)
}

function providerNode(model: ModelDef, query: Record<string, unknown>, ctx: QueryContext): SelectNode {
  const { select: _ignored, ...rest } = query
  const node = parseModelQuery(model, rest, ctx)
  const fields = model.key === model.providerTitle ? [model.key] : [model.key, model.providerTitle]
  return { ...node, fields, relations: [] }
}

export async function modelRoutes(app: FastifyInstance, { config }: ModelRoutesOptions) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  const cache = new ReadCache()
  // Any content write, in this process or another, empties the cache.
  app.content.onInvalidate(() => cache.clear())
  const db = app.db as unknown as Kysely<any>

  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true })

  app.setErrorHandler(
    createErrorHandler({
      scope: 'model API',
      headers: { 'cache-control': 'no-store' },
      translate: multipartError,
    }),
  )

  async function read(kind: ReadKind, request: FastifyRequest<{ Params: { model: string } }>, reply: FastifyReply) {
    // An exact name from the allowlist, after Fastify has decoded the path segment.
    const model = findModel(request.params.model) ?? unknownModel()
    const who = await access(request)
    if (model.adminOnly) requireAdmin(who)
    const ctx: QueryContext = { isAdmin: who === 'admin' }
    const params = parseQuery(request.raw.url ?? '', { depth: 4, parameterLimit: 50 })
    const query = parseQueryParameter(params.query)
    const ttl = parseTtl(params.ttl)
    const node =
      kind === 'provider'
        ? providerNode(model, query, ctx)
        : kind === 'one'
          ? { ...parseModelQuery(model, query, ctx), take: 1 }
          : parseModelQuery(model, query, ctx)

    const answer = async () => {
      const { rows, more } = await executePage(db, node, ctx)
      if (kind === 'one') {
        if (rows.length === 0) throw new HttpError(404, `Запись модели ${model.name} не найдена`, 'not_found')
        return JSON.stringify({ data: rows[0] })
      }
      const data =
        kind === 'provider' ? rows.map((row) => ({ id: row[model.key], title: row[model.providerTitle] ?? '' })) : rows
      // An answer that stopped at its limit says where the rest starts (docs/contract.md §3).
      return JSON.stringify(more && rows.length > 0 ? { data, next: { skip: node.skip + rows.length } } : { data })
    }

    reply.type(JSON_TYPE)
    // Personal data and whatever the admin sees never sit in a shared cache.
    if (model.adminOnly || ctx.isAdmin) {
      reply.header('cache-control', 'no-store, private')
      return reply.send(await answer())
    }
    if (ttl === 0) {
      reply.header('cache-control', 'no-store')
      return reply.send(await answer())
    }
    await app.content.sync()
    const key = `${kind}\u0000${model.name}\u0000${ttl}\u0000${typeof params.query === 'string' ? params.query : ''}`
    const { body, hit } = await cache.get(key, ttl, answer)
    reply.header('cache-control', `public, max-age=${ttl}, stale-while-revalidate=${staleSeconds(ttl)}`)
    reply.header('x-cache', hit ? 'HIT' : 'MISS')
    return reply.send(body)
  }

  async function write(mode: WriteMode, request: FastifyRequest<{ Params: { model: string } }>, reply: FastifyReply) {
    const model = findModel(request.params.model)
    // Leads are written by POST /api/feedback (the leads plugin) only, never here.
    if (!model || !model.writable) unknownModel()
    requireAdmin(await access(request))
    const { values, files } = await readMultipartWrite(request, model.name, imagePathPatterns(model))
    validateWrite(model, mode, values)
    for (const file of files) await storeUpload(app.mediaStorage, file.value, file.path, request.log)
    // Through the write door: the live site (route map, page and API caches) changes at once.
    const key = await writeRecord(app.writeDoor, model, mode, values)
    const record = await readRecord(app.db, model, key)
    reply.header('cache-control', 'no-store')
    return reply
      .code(mode === 'create' ? 201 : 200)
      .type(JSON_TYPE)
      .send({ data: record })
  }

  async function remove(request: FastifyRequest<{ Params: { model: string } }>, reply: FastifyReply) {
    const model = findModel(request.params.model)
    if (!model || !model.writable) unknownModel()
    requireAdmin(await access(request))
    // Parts and list items go with their record's write (PATCH with null or a shorter list).
    if (model.name !== 'structure') {
      throw new HttpError(
        405,
        `Записи модели ${model.name} не удаляются: измените их методом PATCH`,
        'method_not_allowed',
      )
    }
    const id = parseDeleteId(parseQuery(request.raw.url ?? '', { depth: 1, parameterLimit: 10 }).id)
    // The page answers 410 and leaves the menus and the sitemap at once (the write door).
    await deleteStructureRecord(app.writeDoor, id)
    reply.header('cache-control', 'no-store')
    return reply.type(JSON_TYPE).send({ data: { id } })
  }

  // The content import's many records in one transaction (before /:model, which it would match).
  app.post('/batch/structure', (request, reply) => batchRoute(app, request, reply, access))
  app.get<{ Params: { model: string } }>('/many/:model', (request, reply) => read('many', request, reply))
  app.get<{ Params: { model: string } }>('/provider/:model', (request, reply) => read('provider', request, reply))
  app.get<{ Params: { model: string } }>('/:model', (request, reply) => read('one', request, reply))
  app.post<{ Params: { model: string } }>('/:model', (request, reply) => write('create', request, reply))
  app.patch<{ Params: { model: string } }>('/:model', (request, reply) => write('update', request, reply))
  app.delete<{ Params: { model: string } }>('/:model', (request, reply) => remove(request, reply))
}
