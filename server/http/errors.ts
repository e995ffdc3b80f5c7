// JSON errors for everything that is not a page: { error: { code, message } } with Russian text,
// plus `errors` per field after a failed validation. One factory makes every scope's error handler
// (the root's here, the model API's, the back office's, the lead form's, the 1C exchange's): the same
// log lines, the same Retry-After, 5xx bodies without details; a scope adds its headers, its
// translation of the framework's errors and, where the answer is not JSON (the no-JS lead form, the
// 1C protocol's plain-text `failure` lines), its own sending.
import fp from 'fastify-plugin'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { clampStatus, HttpError } from './http-error'

/** What a 503 without its own Retry-After tells the client to wait, in seconds. */
const RETRY_AFTER_SECONDS = 30

const MESSAGES: Record<number, [code: string, message: string]> = {
  400: ['bad_request', 'Некорректный запрос'],
  401: ['unauthorized', 'Нужна авторизация'],
  403: ['forbidden', 'Доступ запрещён'],
  404: ['not_found', 'Не найдено'],
  405: ['method_not_allowed', 'Метод не поддерживается'],
  406: ['not_acceptable', 'Формат ответа не поддерживается'],
  408: ['timeout', 'Превышено время ожидания запроса'],
  413: ['payload_too_large', 'Слишком большой запрос'],
  415: ['unsupported_media_type', 'Неподдерживаемый тип содержимого'],
  429: ['rate_limited', 'Слишком много запросов. Попробуйте позже'],
  503: ['unavailable', 'Сервис временно недоступен. Попробуйте позже'],
}

function defaultsOf(status: number): [code: string, message: string] {
  return MESSAGES[status] ?? (status >= 500 ? ['internal', 'Внутренняя ошибка сервера'] : ['error', 'Ошибка запроса'])
}

export function errorBody(status: number, message?: string, code?: string) {
  const [defaultCode, defaultMessage] = defaultsOf(status)
  return { error: { code: code ?? defaultCode, message: message ?? defaultMessage } }
}

interface ErrorHandlerOptions {
  /** Names the scope in its log lines: «model API request failed» */
  readonly scope?: string
  /** Headers every error answer of the scope carries */
  readonly headers?: Readonly<Record<string, string>>
  /** The scope's own answer to an error of the framework or a plugin (multipart limits, say) */
  readonly translate?: (error: FastifyError) => HttpError | undefined
  /** Logs a failure's code only: its message may quote the body (a JSON parse error does) */
  readonly logCodeOnly?: boolean
  /**
   * The warning to log, with the error's message only, for a failure the scope expects at times
   * (its store away for a while) instead of logging it as a failure with its stack
   */
  readonly warnOf?: (error: FastifyError | HttpError) => string | undefined
  /** Sends the answer in the scope's format; by default the JSON error body */
  readonly send?: (request: FastifyRequest, reply: FastifyReply, error: HttpError) => unknown
}

/** The HttpError to answer any thrown value with: its own, the scope's translation, or the status's default text. */
function toHttpError(error: FastifyError | HttpError, translate: ErrorHandlerOptions['translate']): HttpError {
  if (error instanceof HttpError) return error
  const translated = translate?.(error)
  if (translated) return translated
  const status = clampStatus(error)
  // Fastify's own messages are English, and a 5xx message is a detail: the client gets the status's text.
  const [code, message] = defaultsOf(status)
  return new HttpError(status, message, code)
}

function sendJson(_request: FastifyRequest, reply: FastifyReply, error: HttpError) {
  const body = errorBody(error.statusCode, error.message, error.code)
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send(error.errors ? { ...body, errors: error.errors } : body)
}

export function createErrorHandler(options: ErrorHandlerOptions = {}) {
  const prefix = options.scope ? `${options.scope} request` : 'request'
  return function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
    for (const [name, value] of Object.entries(options.headers ?? {})) reply.header(name, value)
    const answer = toHttpError(error, options.translate)
    const code = (error as { code?: unknown }).code
    const warning = options.warnOf?.(error)
    if (warning !== undefined) {
      request.log.warn({ message: error.message }, warning)
    } else if (answer.statusCode >= 500) {
      request.log.error(options.logCodeOnly ? { code } : { err: error }, `${prefix} failed`)
    } else {
      // What a reader said of a file it could not read (a price list's XLSX), set by our own
      // refusal only: the owner gets the Russian text. Not another error's cause: a JSON parser's
      // message quotes the body, a lead's phone with it.
      const cause =
        error instanceof HttpError && error.cause instanceof Error ? error.cause.message.slice(0, 300) : undefined
      request.log.info({ code, status: answer.statusCode, ...(cause ? { cause } : {}) }, `${prefix} rejected`)
    }
    // A 503 always says when to come back (the database or the media store is away for a while).
    const retryAfter = answer.retryAfter ?? (answer.statusCode === 503 ? RETRY_AFTER_SECONDS : undefined)
    if (retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))))
    return (options.send ?? sendJson)(request, reply, answer)
  }
}

// fastify-plugin: the error and not-found handlers must be the root's, not a child context's.
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler(createErrorHandler())
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody(404)))
  },
  { name: 'errors' },
)
