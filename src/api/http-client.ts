import { stringifyQuery } from './query-string'

export { ApiError, createHttpClient }
export type {
  ApiErrorInit,
  FetchInit,
  FetchLike,
  FetchResponse,
  HttpClient,
  HttpClientOptions,
  HttpMethod,
  RequestBody,
  RequestOptions,
}

type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'
type RequestBody = string | FormData | Blob | URLSearchParams

/** What the client passes to `fetch`: a subset both the browser's fetch and undici's accept. */
interface FetchInit {
  method: string
  headers: Record<string, string>
  body?: RequestBody
  signal?: AbortSignal
}

/** What the client reads from a response. */
interface FetchResponse {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  text(): Promise<string>
}

type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>

interface HttpClientOptions {
  /** Origin (and optional path prefix) of the API host; '' means the page's own origin (browser only). */
  readonly baseUrl?: string
  /** Milliseconds before a request fails with code 'timeout'. 0 or unset: no timeout (docs/contract.md §6). */
  readonly timeoutMs?: number
  /** Defaults to `globalThis.fetch`; the Node tools pass undici's (server/tools/undici-fetch.ts). */
  readonly fetch?: FetchLike
  /** Sent with every request; a request's own headers win. */
  readonly headers?: Readonly<Record<string, string>>
}

interface RequestOptions {
  /** Serialised in bracket form by `stringifyQuery`; `query` goes as a JSON string. */
  readonly query?: Readonly<Record<string, unknown>>
  /** Sent as `application/json`. */
  readonly json?: unknown
  /** Sent as is (FormData gets its multipart boundary from fetch). Ignored when `json` is given. */
  readonly body?: RequestBody
  readonly headers?: Readonly<Record<string, string | undefined>>
  readonly signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this request. */
  readonly timeoutMs?: number
}

interface HttpClient {
  /**
   * Sends one request and resolves with the parsed JSON body (a string for other content types,
   * `undefined` for an empty body). Statuses 200–399 resolve; everything else rejects with ApiError.
   * The type parameter is a cast, not a check.
   */
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>
}

interface ApiErrorInit {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly errors?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly cause?: unknown
}

/**
 * A failed call: the server's error (`status` 400–599 or an unexpected 1xx, with the docs/contract.md §3
 * `{ error: { code, message }, errors? }` body), or a client-side failure with `status` 0:
 * code 'network', 'timeout' or 'aborted'. `message` is always Russian text for people.
 *
 * @example
 * try {
 *   await api.post('structure', values, { token })
 * } catch (error) {
 *   if (error instanceof ApiError && error.status === 400) showFieldErrors(error.errors)
 * }
 */
class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status, or 0 when no answer came (network failure, timeout, abort). */
  readonly status: number
  /** Machine-readable code: the server's `error.code`, or 'network' | 'timeout' | 'aborted' | 'invalid_response' | 'http'. */
  readonly code: string
  /** Field → Russian message for a failed validation; empty otherwise. */
  readonly errors: Readonly<Record<string, string>>
  /** The parsed response body, when there was one. */
  readonly body: unknown

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.status = init.status
    this.code = init.code
    this.errors = Object.freeze({ ...init.errors })
    this.body = init.body
  }
}

const MESSAGES = {
  network: 'Нет соединения с сервером',
  timeout: 'Сервер не ответил вовремя',
  aborted: 'Запрос отменён',
  invalidResponse: 'Сервер прислал некорректный ответ',
} as const

// Fallback texts when the body is not the docs/contract.md §3 error shape (a proxy's HTML page, say).
const STATUS_MESSAGES: Record<number, string> = {
  400: 'Некорректный запрос',
  401: 'Требуется авторизация',
  403: 'Доступ запрещён',
  404: 'Не найдено',
  413: 'Слишком большой запрос',
  415: 'Неподдерживаемый тип данных',
  429: 'Слишком много запросов. Попробуйте позже',
  503: 'Сервис временно недоступен. Попробуйте позже',
}

const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i

/**
 * Creates the isomorphic HTTP client: browser code uses the page's fetch, Node code may inject undici's.
 *
 * @example
 * const client = createHttpClient({ baseUrl: 'http://127.0.0.1:3000', timeoutMs: 5000 })
 * const body = await client.request<{ data: unknown[] }>('GET', '/api/many/structure', {
 *   query: { query: { where: { typeId: { in: ['index'] } } }, ttl: 120 },
 * })
 */
function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '')
  const defaultHeaders = lowerCaseKeys(options.headers ?? {})
  // Resolved per call and called unbound: a stored `window.fetch` called as a method throws "Illegal invocation".
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init))

  async function request<T>(method: HttpMethod, path: string, init: RequestOptions = {}): Promise<T> {
    const url = buildUrl(baseUrl, path, init.query)
    if (!ABSOLUTE_URL.test(url) && typeof globalThis.location === 'undefined') {
      throw new TypeError(`createHttpClient: baseUrl is required outside the browser (got "${url}")`)
    }

    const headers: Record<string, string> = { accept: 'application/json', ...defaultHeaders }
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = value
    }
    let body: RequestBody | undefined = init.body
    if (init.json !== undefined) {
      body = JSON.stringify(init.json)
      headers['content-type'] = 'application/json; charset=utf-8'
    }

    const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? 0
    const timeoutSignal = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined
    const signal = anySignal([init.signal, timeoutSignal])

    let status: number
    let contentType: string
    let text: string
    try {
      const response = await fetchImpl(url, { method, headers, body, signal })
      status = response.status
      contentType = response.headers.get('content-type') ?? ''
      // Read inside the try: the timeout also covers a body that stalls half-way.
      text = await response.text()
    } catch (cause) {
      if (timeoutSignal?.aborted) {
        throw new ApiError({ status: 0, code: 'timeout', message: MESSAGES.timeout, cause })
      }
      if (init.signal?.aborted) {
        throw new ApiError({ status: 0, code: 'aborted', message: MESSAGES.aborted, cause })
      }
      throw new ApiError({ status: 0, code: 'network', message: MESSAGES.network, cause })
    }

    if (status >= 200 && status < 400) {
      if (text === '') return undefined as T
      if (!/\bjson\b/i.test(contentType)) return text as T
      try {
        return JSON.parse(text) as T
      } catch (cause) {
        throw new ApiError({
          status,
          code: 'invalid_response',
          message: MESSAGES.invalidResponse,
          body: text,
          cause,
        })
      }
    }
    throw toApiError(status, text)
  }

  return { request }
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions['query']): string {
  const target = ABSOLUTE_URL.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`
  const search = query === undefined ? '' : stringifyQuery(query)
  if (search === '') return target
  return `${target}${target.includes('?') ? '&' : '?'}${search}`
}

function toApiError(status: number, text: string): ApiError {
  let body: unknown = text === '' ? undefined : text
  try {
    if (text !== '') body = JSON.parse(text)
  } catch {
    // Not JSON: keep the text as the body and fall back to the status texts.
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined
  const code = typeof error?.code === 'string' && error.code !== '' ? error.code : 'http'
  const message =
    typeof error?.message === 'string' && error.message !== ''
      ? error.message
      : (STATUS_MESSAGES[status] ?? (status >= 500 ? 'Ошибка сервера. Попробуйте позже' : 'Ошибка запроса'))
  const errors: Record<string, string> = {}
  if (isRecord(body) && isRecord(body.errors)) {
    for (const [field, text] of Object.entries(body.errors)) {
      if (typeof text === 'string') errors[field] = text
    }
  }
  return new ApiError({ status, code, message, errors, body })
}

function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined)
  if (present.length <= 1) return present[0]
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present)
  // Browsers before 2023 lack AbortSignal.any.
  const controller = new AbortController()
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  }
  return controller.signal
}

function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
