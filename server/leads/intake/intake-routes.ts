// POST /api/feedback: the public lead form (docs/contract.md §3). An encapsulated plugin: its validator
// (the project's strict ajv: extra fields are refused, never dropped), its body parsers, its
// rate limit and its error handler apply to these routes only.
//
// Statuses: 201 stored; 200 a repeated Idempotency-Key (the first lead's id, nothing stored);
// 202 accepted into the lead journal while the database cannot take it (stored when it is back);
// 303 to /spasibo for the no-JS form; 400 with every field error at once; 413; 415; 429; 503
// when neither the database nor the journal can take it. A bot (honeypot filled, or sent faster than a person can type) gets
// the same answer as a person while its lead is kept with spam = 1.
import { randomUUID } from 'node:crypto'
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config'
import { clampStatus, HttpError } from '../../http/http-error'
import { createErrorHandler, errorBody } from '../../http/errors'
import {
  EMPTY_LEAD_FORM,
  LEAD_CONSENT_ENDPOINT,
  LEAD_ENDPOINT,
  LEAD_FAILURE_TEXT,
  LEAD_THANKS_PATH,
  type LeadFormState,
  type LeadFormValues,
} from '../../../src/lead/lead-form-state'
import { leadRequestSchema, type LeadRequest } from '../../../src/lead/lead-schema'
import { validateLeadRequest } from '../../../src/lead/lead-validators.generated'
import { createAjv } from '../../../src/validation/create-ajv'
import { fieldErrorsFromAjv } from '../../../src/validation/field-errors'
import { messagesRu } from '../../../src/validation/messages-ru'
import { sendFormPage } from './form-page'
import { databaseRateLimitStore } from '../../http/rate-limit-store'
import { IDEMPOTENCY_KEY, idempotencyKeyOf, isSpam, leadOf, productAt, sourcePath } from './lead-rules'
import { CONSENT_VERSION_LABEL_ONLY, CONSENT_VERSION_UNAVAILABLE, findConsentText, storeLead } from '../lead-store'

/** Largest accepted lead request: a full lead is under 2 KB, so this leaves room and no more. */
const LEAD_BODY_LIMIT = 16 * 1024

const STORAGE_FAILED = 'Не удалось сохранить заявку. Попробуйте ещё раз или позвоните нам'
const RATE_LIMITED = 'Слишком много заявок подряд. Попробуйте через минуту или позвоните нам'
const FORM_TYPE = 'application/x-www-form-urlencoded'

// The multipart fields besides `data` (files included), reported as unknown fields.
const extraFields = new WeakMap<FastifyRequest, string[]>()

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
  return lead
}

/** The multipart body of docs/contract.md §3: the lead as a JSON string in the field `data`. */
async function fromMultipart(request: FastifyRequest): Promise<unknown> {
  const length = Number(request.headers['content-length'])
  if (length > LEAD_BODY_LIMIT) throw new HttpError(413, 'payload_too_large', 'payload_too_large')
  const extras: string[] = []
  let data: unknown
  let hasData = false
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        extras.push(part.fieldname)
        part.file.resume()
        continue
      }
      if (part.valueTruncated || part.fieldnameTruncated)
        throw new HttpError(413, 'payload_too_large', 'payload_too_large')
      if (part.fieldname !== 'data' || hasData) {
        extras.push(part.fieldname)
        continue
      }
      hasData = true
      data = part.value
    }
  } catch (error) {
    const status = (error as FastifyError).statusCode
    // Limits are 413; anything else the parser chokes on is a malformed request, never a 500.
    throw status === 413
      ? new HttpError(413, 'payload_too_large', 'payload_too_large')
      : new HttpError(400, 'bad_request', 'bad_request')
  }
  if (extras.length > 0) extraFields.set(request, extras)
  if (!hasData) return {}
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data)
  } catch {
    throw new HttpError(400, messagesRu.any.invalid, 'invalid_json', { data: messagesRu.any.invalid })
  }
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

export async function leadsRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const ajv = createAjv()
  // The lead body is checked by the validator generated from its schema, the same code the
  // browser runs; anything else this plugin validates is compiled as usual.
  app.setValidatorCompiler(({ schema }) => (schema === leadRequestSchema ? validateLeadRequest : ajv.compile(schema)))
  // JSON (Fastify's own parser), urlencoded and multipart only: text/plain is 415 here.
  app.removeContentTypeParser('text/plain')
  await app.register(formbody, { bodyLimit: LEAD_BODY_LIMIT })
  await app.register(multipart, {
    // A lead has no files: a file part is reported as an unknown field, its bytes cut at 1.
    throwFileSizeLimit: false,
    limits: {
      fieldNameSize: 100,
      fieldSize: LEAD_BODY_LIMIT,
      fields: 10,
      files: 2,
      fileSize: 1,
      parts: 12,
      headerPairs: 20,
    },
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

  // The consent text's version by page, remembered, so a lead journaled during an outage still
  // records which text the visitor agreed to.
  const consentVersions = new Map<string, string>()
  async function consentVersionAt(sourceUrl: string): Promise<string> {
    let consentUrl: string | null = null
    try {
      const site = await app.content.getSite(new URL(sourceUrl, 'http://localhost').pathname)
      consentUrl = site?.consentUrl ?? null
      const version = (await findConsentText(app.db, consentUrl))?.version ?? CONSENT_VERSION_LABEL_ONLY
      consentVersions.set(consentUrl ?? '', version)
      return version
    } catch {
      return consentVersions.get(consentUrl ?? '') ?? CONSENT_VERSION_UNAVAILABLE
    }
  }

  async function answerRejected(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    state: Partial<LeadFormState>,
  ) {
    if (isFormPost(request)) {
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >
      return sendFormPage(app, request, reply, status, {
        values: state.values ?? EMPTY_LEAD_FORM,
        errors: state.errors ?? {},
        failure: state.failure ?? null,
        ...(typeof body.formStartedAt === 'number' ? { startedAt: body.formStartedAt } : {}),
        ...(typeof body.idempotencyKey === 'string' && IDEMPOTENCY_KEY.test(body.idempotencyKey)
          ? { idempotencyKey: body.idempotencyKey }
          : {}),
      })
    }
    const message = status === 429 ? RATE_LIMITED : status === 503 ? STORAGE_FAILED : undefined
    return reply.code(status).send({ ...errorBody(status, message), ...(state.errors ? { errors: state.errors } : {}) })
  }

  app.setErrorHandler(
    createErrorHandler({
      scope: 'lead',
      // Never the message: a JSON parse error quotes the body it choked on.
      logCodeOnly: true,
      // A multipart field declared as JSON that is not JSON.
      translate: (error) => (clampStatus(error) === 406 ? new HttpError(400, 'bad_request', 'bad_request') : undefined),
      send: (request, reply, error) => {
        if (error.statusCode === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? '60')
        return answerRejected(request, reply, error.statusCode, {
          errors: error.errors,
          failure: error.statusCode === 400 && error.errors ? null : LEAD_FAILURE_TEXT,
        })
      },
    }),
  )

  app.post(
    LEAD_ENDPOINT.slice('/api'.length),
    {
      bodyLimit: LEAD_BODY_LIMIT,
      schema: { body: leadRequestSchema },
      attachValidation: true,
      config: config.leadRateLimit > 0 ? { rateLimit: { max: config.leadRateLimit, timeWindow: 60_000 } } : {},
      async preValidation(request) {
        if (request.isMultipart()) request.body = await fromMultipart(request)
        else if (isFormPost(request)) request.body = fromFormBody(request.body)
      },
    },
    async (request, reply) => {
      const errors: Record<string, string> = request.validationError
        ? fieldErrorsFromAjv((request.validationError as FastifyError).validation ?? [])
        : {}
      for (const field of extraFields.get(request) ?? []) errors[field] ??= messagesRu.any.unknown
      const idempotency = idempotencyKeyOf(request.headers['idempotency-key'], request.body as LeadRequest)
      Object.assign(errors, idempotency.error)
      if (Object.keys(errors).length > 0) {
        return answerRejected(request, reply, 400, { errors, values: formValues(request.body) })
      }

      const body = request.body as LeadRequest
      const spam = isSpam(body, config.leadMinFillSeconds)
      const sourceUrl = sourcePath(request, body)
      const lead = {
        lead: leadOf(body),
        spam,
        origin: {
          sourceUrl,
          product: await productAt(app.content, sourceUrl).catch(() => null),
          utm: body.utm ?? null,
        },
        consent: {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          version: await consentVersionAt(sourceUrl),
        },
      }
      let stored
      try {
        stored = await storeLead(app.db, {
          ...lead,
          idempotencyKey: idempotency.key,
          channels: app.leadDelivery.channels,
        })
      } catch (error) {
        // The code and the driver's message only: neither carries the lead's values.
        request.log.error(
          { code: (error as { code?: string }).code, message: (error as Error).message },
          'lead not stored',
        )
        // The database cannot take it now: the journal keeps it until it can (fsync first).
        const at = new Date().toISOString()
        try {
          await app.leadJournal.append({ ...lead, at, idempotencyKey: idempotency.key ?? `journal-${randomUUID()}` })
        } catch (journalError) {
          request.log.error({ code: (journalError as { code?: string }).code }, 'lead not journaled either')
          return answerRejected(request, reply, 503, { values: formValues(request.body), failure: LEAD_FAILURE_TEXT })
        }
        request.log.warn({ spam }, 'lead journaled: stored once the database is back')
        if (isFormPost(request)) return reply.code(303).header('location', LEAD_THANKS_PATH).send()
        return reply.code(202).send({ data: { id: null, createdAt: at } })
      }
      request.log.info({ leadId: stored.id, created: stored.created, spam }, 'lead stored')
      // After the answer: delivery never holds up the 201.
      if (stored.created && !spam) setImmediate(() => app.leadDelivery.wake())

      if (isFormPost(request)) return reply.code(303).header('location', LEAD_THANKS_PATH).send()
      return reply.code(stored.created ? 201 : 200).send({ data: { id: stored.id, createdAt: stored.createdAt } })
    },
  )

  // The consent text the form links to, for the consent dialog: GET /api/lead-consent?path=/…
  app.get(LEAD_CONSENT_ENDPOINT.slice('/api'.length), async (request, reply) => {
    const { path } = request.query as { path?: unknown }
    const site = await app.content.getSite(typeof path === 'string' && path.startsWith('/') ? path : '/')
    const text = await findConsentText(app.db, site?.consentUrl ?? null)
    if (!text) return reply.code(404).send(errorBody(404))
    return reply.header('cache-control', 'public, max-age=300').send({ data: text })
  })
}
