// JSON errors for everything that is not a page: { error: { code, message } } with Russian text.
// 5xx bodies never carry details; the details go to the log.
import fp from 'fastify-plugin'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { clampStatus } from './http-error'

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

export function errorBody(status: number, message?: string, code?: string) {
  const [defaultCode, defaultMessage] =
    MESSAGES[status] ?? (status >= 500 ? ['internal', 'Внутренняя ошибка сервера'] : ['error', 'Ошибка запроса'])
  return { error: { code: code ?? defaultCode, message: message ?? defaultMessage } }
}

// fastify-plugin: the error and not-found handlers must be the root's, not a child context's.
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = clampStatus(error)
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed')
        return reply.code(status).send(errorBody(status))
      }
      request.log.info({ code: error.code, status }, 'request rejected')
      // Fastify's own messages are English; the client gets the Russian text for the status.
      return reply.code(status).send(errorBody(status))
    })
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody(404)))
  },
  { name: 'errors' },
)
