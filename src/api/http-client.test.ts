import { fastify } from 'fastify'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createHttpClient } from './http-client'
import type { FetchLike, HttpClient } from './http-client'

const VALIDATION_BODY = {
  error: { code: 'validation', message: 'Проверьте заполнение формы' },
  errors: { username: 'Поле обязательно', email: 'Значение недопустимо' },
}

let app: FastifyInstance
let baseUrl: string
let fetch: FetchLike
let client: HttpClient

beforeAll(async () => {
  // The hanging route would keep close() waiting for its socket otherwise.
  app = fastify({ forceCloseConnections: true })
  app.get<{ Params: { code: string } }>('/status/:code', async (req, reply) => {
    const status = Number(req.params.code)
    // No Location header: fetch hands a 3xx without one back instead of following it.
    return reply.code(status).send(status === 204 ? undefined : { data: { status } })
  })
  app.get('/fail/400', async (_req, reply) => reply.code(400).send(VALIDATION_BODY))
  app.get('/fail/404', async (_req, reply) =>
    reply.code(404).send({ error: { code: 'not_found', message: 'Запись не найдена' } }),
  )
  app.get('/fail/500', async (_req, reply) =>
    reply.code(500).send({ error: { code: 'internal', message: 'Внутренняя ошибка сервера' } }),
  )
  app.get('/fail/502', async (_req, reply) => reply.code(502).type('text/html').send('<h1>Bad Gateway</h1>'))
  app.get('/text', async (_req, reply) => reply.type('text/plain').send('просто текст'))
  app.get('/broken-json', async (_req, reply) => reply.type('application/json').send('{"data":'))
  app.get('/hang', () => new Promise(() => {}))
  app.get<{ Querystring: { ms: string } }>('/slow', async (req) => {
    await new Promise((resolve) => setTimeout(resolve, Number(req.query.ms)))
    return { data: 'поздно, но пришло' }
  })
  app.post('/echo', async (req) => ({ headers: req.headers, body: req.body, url: req.raw.url }))
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  // Node's own fetch, as the tests of src/ need nothing Node-only.
  fetch = (url, init) => globalThis.fetch(url, init)
  client = createHttpClient({ baseUrl, fetch })
})

afterAll(() => app.close())

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('createHttpClient', () => {
  it.each([200, 201, 301, 302, 399])('resolves status %i with the parsed JSON body', async (status) => {
    await expect(client.request('GET', `/status/${status}`)).resolves.toEqual({ data: { status } })
  })

  it('resolves 204 with undefined', async () => {
    await expect(client.request('GET', '/status/204')).resolves.toBeUndefined()
  })

  it('resolves a text response with its text', async () => {
    await expect(client.request('GET', '/text')).resolves.toBe('просто текст')
  })

  it('rejects 400 with the server code, Russian message and every field error', async () => {
    const error = await failure(client.request('GET', '/fail/400'))
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'validation',
      message: 'Проверьте заполнение формы',
      errors: { username: 'Поле обязательно', email: 'Значение недопустимо' },
      body: VALIDATION_BODY,
    })
  })

  it.each([
    [404, 'not_found', 'Запись не найдена'],
    [500, 'internal', 'Внутренняя ошибка сервера'],
  ])('rejects %i with the server code and message and no field errors', async (status, code, message) => {
    const error = await failure(client.request('GET', `/fail/${status}`))
    expect(error).toMatchObject({ status, code, message, errors: {} })
  })

  it.each([400, 401, 403, 404, 418, 429, 503])('rejects status %i from the status route', async (status) => {
    const error = await failure(client.request('GET', `/status/${status}`))
    expect(error.status).toBe(status)
    expect(error.message).toMatch(/[А-яЁё]/)
  })

  it('rejects a non-JSON error page with a Russian text chosen by status', async () => {
    const error = await failure(client.request('GET', '/fail/502'))
    expect(error).toMatchObject({
      status: 502,
      code: 'http',
      message: 'Ошибка сервера. Попробуйте позже',
      body: '<h1>Bad Gateway</h1>',
    })
  })

  it('rejects a success whose JSON is broken with code invalid_response', async () => {
    const error = await failure(client.request('GET', '/broken-json'))
    expect(error).toMatchObject({ status: 200, code: 'invalid_response' })
  })

  it('sends json with its content type, the default headers and the request headers', async () => {
    const withHeaders = createHttpClient({
      baseUrl: `${baseUrl}/`,
      fetch,
      headers: { 'X-Site': 'vitrina', 'X-Over': 'client' },
    })
    const echo = await withHeaders.request<{ headers: Record<string, string>; body: unknown; url: string }>(
      'POST',
      'echo',
      { json: { title: 'Дрель' }, headers: { 'x-over': 'request' }, query: { a: { b: 1 } } },
    )
    expect(echo.body).toEqual({ title: 'Дрель' })
    expect(echo.url).toBe('/echo?a[b]=1')
    expect(echo.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      accept: 'application/json',
      'x-site': 'vitrina',
      'x-over': 'request',
    })
  })

  it('waits as long as the server takes when no timeout is set', async () => {
    await expect(client.request('GET', '/slow', { query: { ms: 300 } })).resolves.toEqual({ data: 'поздно, но пришло' })
  })

  it('rejects with code timeout when the server does not answer within timeoutMs', async () => {
    const impatient = createHttpClient({ baseUrl, fetch, timeoutMs: 200 })
    const started = Date.now()
    const error = await failure(impatient.request('GET', '/hang'))
    expect(error).toMatchObject({ status: 0, code: 'timeout', message: 'Сервер не ответил вовремя' })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('lets one request override the client timeout', async () => {
    const error = await failure(client.request('GET', '/hang', { timeoutMs: 100 }))
    expect(error.code).toBe('timeout')
  })

  it('rejects with code aborted when the caller aborts', async () => {
    const controller = new AbortController()
    const pending = client.request('GET', '/hang', { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    const error = await failure(pending)
    expect(error).toMatchObject({ status: 0, code: 'aborted' })
  })

  it('rejects with status 0 and code network when nothing listens', async () => {
    const closed = fastify()
    const closedUrl = await closed.listen({ host: '127.0.0.1', port: 0 })
    await closed.close()
    const error = await failure(createHttpClient({ baseUrl: closedUrl, fetch }).request('GET', '/'))
    expect(error).toMatchObject({ status: 0, code: 'network', message: 'Нет соединения с сервером' })
    expect(error.cause).toBeDefined()
  })

  it('uses globalThis.fetch when none is injected', async () => {
    await expect(createHttpClient({ baseUrl }).request('GET', '/status/200')).resolves.toEqual({
      data: { status: 200 },
    })
  })

  it('refuses a relative URL outside the browser', async () => {
    await expect(createHttpClient({ fetch }).request('GET', '/status/200')).rejects.toThrow(TypeError)
  })
})
