import { ApiError } from './http-client'
import type { HttpClient } from './http-client'
import { toFormData } from './multipart'
import { API_PREFIX } from '../site/paths'

export { createModelApi }
export type { ManyPage, ModelApi, ModelQuery, ProviderOption, ReadOptions, WriteOptions }

/** The Prisma-compatible query subset of docs/contract.md §3; the server validates it. */
interface ModelQuery {
  readonly select?: Readonly<Record<string, unknown>>
  readonly where?: Readonly<Record<string, unknown>>
  readonly orderBy?: Readonly<Record<string, unknown>> | ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly take?: number
  readonly skip?: number
}

interface ReadOptions {
  /** Cache time in seconds, sent as `ttl` (the structure load sends 120). */
  readonly ttl?: number
  /** Admin token, sent as `Authorization: Bearer …` (reading `feedback` needs it). */
  readonly token?: string
  readonly signal?: AbortSignal
}

interface WriteOptions {
  /** Admin token, sent as `Authorization: Bearer …`. */
  readonly token?: string
  readonly signal?: AbortSignal
}

/**
 * A page of `GET /api/many/{model}`: its rows, and where the rest starts when the answer stopped at
 * its limit (`take`, at most 500); null when nothing is left.
 */
interface ManyPage<T> {
  readonly data: T[]
  readonly next: { readonly skip: number } | null
}

interface WalkOptions extends ReadOptions {
  /** Rows the caller can hold: more than this rejects rather than silently stopping. */
  readonly max?: number
}

/** One picker option from `GET /api/provider/{model}`. */
interface ProviderOption {
  readonly id: number | string
  readonly title: string
}

interface ModelApi {
  /** `GET /api/{model}`: the first match; ApiError 404 when none. */
  get<T = Record<string, unknown>>(model: string, query?: ModelQuery, options?: ReadOptions): Promise<T>
  /** `GET /api/many/{model}`: one page of matches, and `next` when more are left. */
  many<T = Record<string, unknown>>(model: string, query?: ModelQuery, options?: ReadOptions): Promise<ManyPage<T>>
  /**
   * Every match: walks `GET /api/many/{model}` page by page along `next` (the query's `take` is the
   * page size). Rejects when there are more than `options.max` rows (default 100,000).
   */
  manyAll<T = Record<string, unknown>>(model: string, query?: ModelQuery, options?: WalkOptions): Promise<T[]>
  /** `GET /api/provider/{model}`: `{ id, title }` options for pickers. */
  provider<T = ProviderOption>(model: string, query?: ModelQuery, options?: ReadOptions): Promise<T[]>
  /** `POST /api/{model}` as multipart (`toFormData`): the created record. */
  post<T = Record<string, unknown>>(
    model: string,
    values: Readonly<Record<string, unknown>>,
    options?: WriteOptions,
  ): Promise<T>
  /** `PATCH /api/{model}` as multipart (`toFormData`): the updated record. */
  patch<T = Record<string, unknown>>(
    model: string,
    values: Readonly<Record<string, unknown>>,
    options?: WriteOptions,
  ): Promise<T>
  /** `DELETE /api/{model}?id=…`: the record leaves and its URL answers 410; resolves with `{ id }`. */
  remove(model: string, id: number, options?: WriteOptions): Promise<{ id: number }>
}

/**
 * The generic per-model calls (docs/contract.md §3) over an HTTP client. Each resolves with the response's
 * `data` field; the type parameters are casts, not checks.
 *
 * @example
 * const api = createModelApi(createHttpClient({ baseUrl }))
 * const { data: sites, next } = await api.many('structure', {
 *   select: { id: true, urlFull: true, index: { select: { logo: true, tel: true } } },
 *   where: { typeId: { in: ['index'] } },
 *   orderBy: { typeId: 'asc' },
 * }, { ttl: 120 })
 * // next: null, or { skip } to ask for the rest; api.manyAll walks every page
 */
function createModelApi(client: HttpClient): ModelApi {
  async function read<T>(prefix: string, model: string, query: ModelQuery | undefined, options: ReadOptions = {}) {
    const body = await client.request('GET', `${API_PREFIX}/${prefix}${modelSegment(model)}`, {
      query: { query, ttl: options.ttl },
      headers: authorization(options.token),
      signal: options.signal,
    })
    return unwrap<T>(body)
  }

  async function write<T>(
    method: 'POST' | 'PATCH',
    model: string,
    values: Readonly<Record<string, unknown>>,
    options: WriteOptions = {},
  ) {
    const body = await client.request(method, `${API_PREFIX}/${modelSegment(model)}`, {
      body: toFormData(values),
      headers: authorization(options.token),
      signal: options.signal,
    })
    return unwrap<T>(body)
  }

  async function many<T>(model: string, query: ModelQuery | undefined, options: ReadOptions = {}) {
    const body = await client.request('GET', `${API_PREFIX}/many/${modelSegment(model)}`, {
      query: { query, ttl: options.ttl },
      headers: authorization(options.token),
      signal: options.signal,
    })
    return { data: unwrap<T[]>(body), next: nextOf(body) }
  }

  async function manyAll<T>(model: string, query: ModelQuery = {}, options: WalkOptions = {}) {
    const max = options.max ?? DEFAULT_WALK_MAX
    const rows: T[] = []
    let skip = query.skip ?? 0
    for (;;) {
      const page = await many<T>(model, { ...query, skip }, options)
      rows.push(...page.data)
      if (rows.length > max) {
        throw new ApiError({
          status: 200,
          code: 'too_many_rows',
          message: `Записей больше ${max}: уточните запрос`,
          body: null,
        })
      }
      if (!page.next || page.data.length === 0) return rows
      skip = page.next.skip
    }
  }

  return {
    get: (model, query, options) => read('', model, query, options),
    many,
    manyAll,
    provider: (model, query, options) => read('provider/', model, query, options),
    post: (model, values, options) => write('POST', model, values, options),
    patch: (model, values, options) => write('PATCH', model, values, options),
    remove: async (model, id, options = {}) => {
      const body = await client.request('DELETE', `${API_PREFIX}/${modelSegment(model)}`, {
        query: { id },
        headers: authorization(options.token),
        signal: options.signal,
      })
      return unwrap<{ id: number }>(body)
    },
  }
}

function modelSegment(model: string): string {
  if (model === '') throw new TypeError('createModelApi: the model name is empty')
  return encodeURIComponent(model)
}

function authorization(token: string | undefined): Record<string, string | undefined> {
  return { authorization: token === undefined ? undefined : `Bearer ${token}` }
}

const DEFAULT_WALK_MAX = 100_000

function nextOf(body: unknown): { skip: number } | null {
  if (typeof body !== 'object' || body === null || !('next' in body)) return null
  const next = body.next as { skip?: unknown } | null
  return next && typeof next.skip === 'number' ? { skip: next.skip } : null
}

function unwrap<T>(body: unknown): T {
  if (typeof body === 'object' && body !== null && 'data' in body) return body.data as T
  throw new ApiError({
    status: 200,
    code: 'invalid_response',
    message: 'Сервер прислал некорректный ответ',
    body,
  })
}
