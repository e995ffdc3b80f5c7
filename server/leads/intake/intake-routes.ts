// POST /api/feedback: the public lead form (docs/contract.md §3). An encapsulated plugin: its body
// parsers, its rate limit and its error handler apply to these routes only. It translates HTTP to
// and from the lead intake (./intake.ts), which judges, stores or journals the lead.
//
// Statuses: 201 stored; 200 a repeated Idempotency-Key with the same request (the first lead's id,
// nothing stored); 202 accepted into the lead journal while the database is unavailable (stored
// when it is back); 303 to /spasibo for the no-JS form; 400 with every field error at once; 413;
// 415; 422 a known Idempotency-Key with another request; 429; 503 with Retry-After when neither
// the database nor the journal can take it. A bot (honeypot filled, or sent faster than a person
// can type) gets the same answer as a person while its lead is kept with spam = 1.
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { clampStatus, HttpError } from '../../http/http-error'
import { createErrorHandler, errorBody } from '../../http/errors'
import {
  EMPTY_LEAD_FORM,
  LEAD_CONSENT_ENDPOINT,
  LEAD_ENDPOINT,
  LEAD_FAILURE_TEXT,
  LEAD_REUSED_FORM_TEXT,
  LEAD_THANKS_PATH,
  type LeadFormState,
  type LeadFormValues,
} from '../../../src/lead/lead-form-state'
import { sendFormPage } from './form-page'
import { databaseRateLimitStore } from '../../http/rate-limit-store'
import type { IntakeOutcome } from './intake'
import { IDEMPOTENCY_KEY } from './lead-rules'
import { FILE_REFUSED, readMultipartLead, stopReading } from './lead-body'
import { routeOf } from '../../http/route-path'
import { afterListSent, formPageOf, listLinesOfForm } from './list-lead'

/** Largest accepted lead request: a full lead is under 2 KB, so this leaves room and no more. */
const LEAD_BODY_LIMIT = 16 * 1024

const STORAGE_FAILED = 'Не удалось сохранить заявку. Попробуйте ещё раз или позвоните нам'
const RATE_LIMITED = 'Слишком много заявок подряд. Попробуйте через минуту или позвоните нам'
const VALUE_REFUSED = 'Заявка содержит недопустимые символы. Исправьте поля и отправьте ещё раз'
const FORM_TYPE = 'application/x-www-form-urlencoded'

function isFormPost(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE)
}

/** The urlencoded no-JS form in the JSON shape: a ticked box is «on», the fill time is text. */
function fromFormBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {}
  // fromEntries defines own properties, so a field named «__proto__» stays a field.
  const lead: Record<string, unknown> = Object.fromEntries(Object.entries(body))
  if (lead.consent === 'on' || lead.consent === 'true') lead.consent = true
  const startedAt = lead.formStartedAt
  if (typeof startedAt === 'string' && /^\d{1,16}$/.test(startedAt)) lead.formStartedAt = Number(startedAt)
  listLinesOfForm(lead)
  return lead
}

function formValues(body: unknown): LeadFormValues {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 1000) : null)
  return {
    username: text(source.username),
    phone: text(source.phone),
    email: text(source.email),
    consent: source.consent === true,
  }
}

/** An answer other than success: its status, field messages, and the text over the form. */
interface Rejection {
  readonly status: number
  readonly errors?: Record<string, string>
  readonly message?: string
  /** The text over the no-JS form when it is not the usual failure text */
  readonly formText?: string
  readonly code?: string
  /** The no-JS form's own key is not to be sent again: the page gets a fresh one */
  readonly freshKey?: boolean
  readonly retryAfterSeconds?: number
}

export async function leadsRoutes(app: FastifyInstance, { config }: { config: Config }) {
  // JSON (Fastify's own parser), urlencoded and multipart only: text/plain is 415 here.
  app.removeContentTypeParser('text/plain')
  await app.register(formbody, { bodyLimit: LEAD_BODY_LIMIT })
  await app.register(multipart, {
    limits: { fieldNameSize: 100, fieldSize: LEAD_BODY_LIMIT, fields: 10, files: 1, parts: 12, headerPairs: 20 },
  })
  if (config.leadRateLimit > 0) {
    await app.register(rateLimit, {
      global: false,
      // Counted in the database, so the limit holds across PM2 workers and hosts. If the count
      // cannot be taken (the database is down), the lead is let through: losing a lead costs more.
      store: databaseRateLimitStore(app.db),
      skipOnError: true,
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        code: 'rate_limited',
        message: RATE_LIMITED,
      }),
    })
  }

  async function reject(request: FastifyRequest, reply: FastifyReply, rejection: Rejection) {
    const { status } = rejection
    if (rejection.retryAfterSeconds !== undefined) reply.header('retry-after', String(rejection.retryAfterSeconds))
    if (isFormPost(request)) {
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >
      const keepKey =
        !rejection.freshKey && typeof body.idempotencyKey === 'string' && IDEMPOTENCY_KEY.test(body.idempotencyKey)
      const state: LeadFormState = {
        values: status === 413 ? EMPTY_LEAD_FORM : formValues(body),
        errors: rejection.errors ?? {},
        failure: rejection.formText ?? (rejection.errors ? null : LEAD_FAILURE_TEXT),
        ...(typeof body.formStartedAt === 'number' ? { startedAt: body.formStartedAt } : {}),
        ...(keepKey ? { idempotencyKey: body.idempotencyKey as string } : {}),
      }
      return sendFormPage(app, request, reply, status, state, formPageOf(request))
    }
    return reply.code(status).send({
      ...errorBody(status, rejection.message, rejection.code),
      ...(rejection.errors ? { errors: rejection.errors } : {}),
    })
  }

  /** The intake's verdict as HTTP: JSON for the dialog and API clients, a page or 303 for the form. */
  function answer(request: FastifyRequest, reply: FastifyReply, outcome: IntakeOutcome) {
    switch (outcome.kind) {
      case 'invalid':
        return reject(request, reply, { status: 400, errors: outcome.errors })
      case 'conflict':
        return reject(request, reply, {
          status: 422,
          code: 'idempotency_key_reused',
          message: LEAD_REUSED_FORM_TEXT,
          formText: LEAD_REUSED_FORM_TEXT,
          freshKey: true,
        })
      case 'refused':
        return reject(request, reply, {
          status: 400,
          code: 'value_refused',
          message: VALUE_REFUSED,
          formText: VALUE_REFUSED,
        })
      case 'unavailable':
        return reject(request, reply, {
          status: 503,
          message: STORAGE_FAILED,
          retryAfterSeconds: outcome.retryAfterSeconds,
        })
      case 'journaled':
        afterListSent(request, reply, config)
        if (isFormPost(request)) return reply.code(303).header('location', LEAD_THANKS_PATH).send()
        return reply.code(202).send({ data: { id: null, createdAt: outcome.createdAt } })
      case 'stored':
        afterListSent(request, reply, config)
        if (isFormPost(request)) return reply.code(303).header('location', LEAD_THANKS_PATH).send()
        return reply.code(outcome.created ? 201 : 200).send({ data: { id: outcome.id, createdAt: outcome.createdAt } })
    }
  }

  app.setErrorHandler(
    createErrorHandler({
      scope: 'lead',
      // Never the message: a JSON parse error quotes the body it choked on.
      logCodeOnly: true,
      // A multipart field declared as JSON that is not JSON.
      translate: (error) => (clampStatus(error) === 406 ? new HttpError(400, 'bad_request', 'bad_request') : undefined),
      send: (request, reply, error) => {
        const status = error.statusCode
        // Past the size limit nothing more of the body is read: the connection ends with the answer.
        if (status === 413 || error.code === FILE_REFUSED) stopReading(request, reply)
        if (status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? '60')
        return reject(request, reply, {
          status,
          errors: error.errors,
          message: status === 429 ? RATE_LIMITED : status >= 500 ? STORAGE_FAILED : undefined,
        })
      },
    }),
  )

  app.post(
    routeOf(app, LEAD_ENDPOINT),
    {
      bodyLimit: LEAD_BODY_LIMIT,
      config: config.leadRateLimit > 0 ? { rateLimit: { max: config.leadRateLimit, timeWindow: 60_000 } } : {},
    },
    async (request, reply) => {
      let body = request.body
      let unknownFields: readonly string[] = []
      if (request.isMultipart()) ({ body, unknownFields } = await readMultipartLead(request, LEAD_BODY_LIMIT))
      else if (isFormPost(request)) body = fromFormBody(request.body)
      request.body = body
      const outcome = await app.leadIntake.submit({
        body,
        unknownFields,
        idempotencyHeader: request.headers['idempotency-key'],
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        referer: request.headers.referer,
      })
      return answer(request, reply, outcome)
    },
  )

  // The consent text the form links to, for the consent dialog: GET /api/lead-consent?path=/…
  app.get(routeOf(app, LEAD_CONSENT_ENDPOINT), async (request, reply) => {
    const { path } = request.query as { path?: unknown }
    const text = await app.leadIntake.consentText(typeof path === 'string' && path.startsWith('/') ? path : '/')
    if (!text) return reply.code(404).send(errorBody(404))
    return reply.header('cache-control', 'public, max-age=300').send({ data: text })
  })
}
