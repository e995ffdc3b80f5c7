import multipart from '@fastify/multipart'
import { fastify } from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createHttpClient } from './http-client'
import { createModelApi } from './model-api'
import type { ModelApi } from './model-api'
import { fromMultipartParts } from './multipart'
import { parseQuery } from './query-string'

interface Call {
  method: string
  path: string
  model: string
  query: unknown
  ttl: unknown
  authorization: string | null
}

type ModelRequest = FastifyRequest<{ Params: { model: string } }>

function describeCall(req: ModelRequest): Call {
  const url = req.raw.url ?? ''
  const parsed = parseQuery(url)
  return {
    method: req.method,
    path: url.split('?')[0],
    model: req.params.model,
    query: typeof parsed.query === 'string' ? JSON.parse(parsed.query) : null,
    ttl: parsed.ttl ?? null,
    authorization: req.headers.authorization ?? null,
  }
}

let app: FastifyInstance
let api: ModelApi

beforeAll(async () => {
  app = fastify()
  await app.register(multipart)
  app.get('/api/:model', async (req: ModelRequest, reply) => {
    if (req.params.model === 'missing') {
      return reply.code(404).send({ error: { code: 'not_found', message: 'Запись не найдена' } })
    }
    if (req.params.model === 'naked') return { id: 1 }
    return { data: describeCall(req) }
  })
  app.get('/api/many/:model', async (req: ModelRequest) => {
    if (req.params.model !== 'numbers') return { data: [describeCall(req)] }
    // 7 rows, 3 to a page at most, with `next` as the server says it (docs/contract.md §3)
    const query = JSON.parse(String(parseQuery(req.raw.url ?? '').query)) as { skip?: number; take?: number }
    const skip = query.skip ?? 0
    const data = Array.from({ length: 7 }, (_, i) => i).slice(skip, skip + Math.min(query.take ?? 3, 3))
    return skip + data.length < 7 ? { data, next: { skip: skip + data.length } } : { data }
  })
  app.get('/api/provider/:model', async (req: ModelRequest) => ({
    data: [{ id: 1, title: 'Главная' }],
    call: describeCall(req),
  }))
  const write = async (req: ModelRequest, reply: { code(status: number): unknown }) => {
    if (req.headers.authorization !== 'Bearer secret') {
      reply.code(401)
      return { error: { code: 'unauthorized', message: 'Нужен токен администратора' } }
    }
    let data: string | undefined
    const files: Array<{ path: string; value: string }> = []
    for await (const part of req.parts()) {
      if (part.type === 'file') files.push({ path: part.fieldname, value: (await part.toBuffer()).toString() })
      else if (part.fieldname === 'data') data = String(part.value)
    }
    reply.code(req.method === 'POST' ? 201 : 200)
    return { data: { call: describeCall(req), values: fromMultipartParts(data, files) } }
  }
  app.post('/api/:model', write)
  app.patch('/api/:model', write)
  app.delete('/api/:model', async (req: ModelRequest, reply) => {
    if (req.headers.authorization !== 'Bearer secret') {
      return reply.code(401).send({ error: { code: 'unauthorized', message: 'Нужен токен администратора' } })
    }
    const { id } = parseQuery(req.raw.url ?? '')
    if (id === '3') {
      return reply
        .code(409)
        .send({ error: { code: 'has_children', message: 'Сначала удалите или перенесите вложенные записи' } })
    }
    return { data: { id: Number(id), call: describeCall(req) } }
  })
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  api = createModelApi(createHttpClient({ baseUrl }))
})

afterAll(() => app.close())

const STRUCTURE_QUERY = {
  select: {
    id: true,
    parentId: true,
    typeId: true,
    urlFull: true,
    index: { select: { logo: true, tel: true, telText: true, description: true, copyright: true } },
  },
  where: { typeId: { in: ['index'] } },
  orderBy: { typeId: 'asc' },
}

describe('createModelApi', () => {
  it('get reads GET /api/{model} with the query as JSON and the ttl, and returns data', async () => {
    const call = await api.get<Call>('structure', STRUCTURE_QUERY, { ttl: 120 })
    expect(call).toEqual({
      method: 'GET',
      path: '/api/structure',
      model: 'structure',
      query: STRUCTURE_QUERY,
      ttl: '120',
      authorization: null,
    })
  })

  it('get sends neither query nor ttl when none is given', async () => {
    const call = await api.get<Call>('structure')
    expect(call).toMatchObject({ path: '/api/structure', query: null, ttl: null })
  })

  it('many reads GET /api/many/{model} and returns the data list with no next when nothing is left', async () => {
    const page = await api.many<Call>('structure', STRUCTURE_QUERY, { ttl: 120 })
    expect(page.data).toEqual([
      expect.objectContaining({ path: '/api/many/structure', query: STRUCTURE_QUERY, ttl: '120' }),
    ])
    expect(page.next).toBeNull()
  })

  it('many says where the rest starts when the answer stopped at its limit', async () => {
    await expect(api.many<number>('numbers', { take: 3 })).resolves.toEqual({ data: [0, 1, 2], next: { skip: 3 } })
    await expect(api.many<number>('numbers', { skip: 6 })).resolves.toEqual({ data: [6], next: null })
  })

  it('manyAll walks every page along next', async () => {
    await expect(api.manyAll<number>('numbers', { take: 3 })).resolves.toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('manyAll rejects rather than stopping silently past the rows the caller can hold', async () => {
    await expect(api.manyAll<number>('numbers', {}, { max: 5 })).rejects.toMatchObject({ code: 'too_many_rows' })
  })

  it('provider reads GET /api/provider/{model} and returns the options', async () => {
    await expect(api.provider('orderType', { take: 5 })).resolves.toEqual([{ id: 1, title: 'Главная' }])
  })

  it('sends the token as a bearer Authorization header on reads', async () => {
    const call = await api.get<Call>('feedback', undefined, { token: 'secret' })
    expect(call.authorization).toBe('Bearer secret')
  })

  it('escapes the model name into one path segment', async () => {
    const call = await api.get<Call>('a/b?c')
    expect(call).toMatchObject({ path: '/api/a%2Fb%3Fc', model: 'a/b?c' })
  })

  it('rejects a missing record with the server Russian message', async () => {
    await expect(api.get('missing')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'Запись не найдена',
    })
  })

  it('rejects an answer without a data field', async () => {
    await expect(api.get('naked')).rejects.toMatchObject({ code: 'invalid_response' })
  })

  it('post sends multipart with the bearer token and returns the created record', async () => {
    const result = await api.post<{ call: Call; values: unknown }>(
      'structure',
      {
        title: 'Дрель',
        product: { image: new Blob(['картинка']), price: 100 },
        sliderItems: [{ image: new Blob(['слайд']) }],
      },
      { token: 'secret' },
    )
    expect(result.call).toMatchObject({ method: 'POST', path: '/api/structure', authorization: 'Bearer secret' })
    expect(result.values).toEqual({
      title: 'Дрель',
      product: { image: 'картинка', price: 100 },
      sliderItems: [{ image: 'слайд' }],
    })
  })

  it('patch sends multipart with PATCH', async () => {
    const result = await api.patch<{ call: Call; values: unknown }>(
      'structure',
      { id: 7, title: 'Новое' },
      { token: 'secret' },
    )
    expect(result).toEqual({
      call: expect.objectContaining({ method: 'PATCH', path: '/api/structure' }),
      values: { id: 7, title: 'Новое' },
    })
  })

  it('remove sends DELETE with the id in the query and the bearer token', async () => {
    const result = await api.remove('structure', 7, { token: 'secret' })
    expect(result).toEqual({
      id: 7,
      call: expect.objectContaining({ method: 'DELETE', path: '/api/structure', authorization: 'Bearer secret' }),
    })
  })

  it('remove rejects with the server Russian message', async () => {
    await expect(api.remove('structure', 3, { token: 'secret' })).rejects.toMatchObject({
      status: 409,
      code: 'has_children',
      message: 'Сначала удалите или перенесите вложенные записи',
    })
    await expect(api.remove('structure', 7)).rejects.toMatchObject({ status: 401 })
  })

  it('rejects a write without a token with 401', async () => {
    const error: unknown = await api.post('structure', { title: 'x' }).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 401, message: 'Нужен токен администратора' })
  })

  it('refuses an empty model name', async () => {
    await expect(api.get('')).rejects.toThrow(TypeError)
  })
})
