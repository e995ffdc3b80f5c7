// The lead intake: what every way in hands a lead to (POST /api/feedback as JSON or multipart,
// and the no-JS form page's urlencoded post). It judges the request (the schema, spam, the
// idempotency key bound to the request's hash, the products its lines name: lead-lines-check.ts),
// stores it through the repository, falls back to the journal only while the database is
// unavailable, and wakes the delivery. The routes only translate HTTP to and from it
// (docs/decisions/023-lead-dead-letters-and-idempotency.md).
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { ErrorObject } from 'ajv'
import type { LeadRequest } from '../../../src/lead/lead-schema'
import { validateLeadRequest } from '../../../src/lead/lead-validators.generated'
import { fieldErrorsFromAjv } from '../../../src/validation/field-errors'
import { messagesRu } from '../../../src/validation/messages-ru'
import type { ContentService } from '../../site/content-service'
import type { Db } from '../../data/db'
import { isRefusedInput } from '../../data/refused-input'
import { isDatabaseUnavailable } from '../../data/unavailable'
import type { DeliveryChannel } from '../../data/schema'
import {
  capLeadRecord,
  CONSENT_VERSION_LABEL_ONLY,
  CONSENT_VERSION_UNAVAILABLE,
  findConsentText,
  storeLead,
  type LeadRecord,
} from '../store/lead-store'
import { JournalFullError, type LeadJournal } from './journal'
import { checkLines } from './lead-lines-check'
import { idempotencyKeyOf, isSpam, leadOf, productAt, requestHash, sourcePath } from './lead-rules'

/** A lead request as it arrived, before any check. */
export interface LeadSubmission {
  /** The body as parsed (JSON, the multipart `data` field, or the urlencoded form's fields) */
  readonly body: unknown
  /** Parts the transport found besides the lead (multipart fields other than `data`) */
  readonly unknownFields?: readonly string[]
  readonly idempotencyHeader: string | string[] | undefined
  readonly ip: string
  readonly userAgent: string | undefined
  readonly referer: string | undefined
}

export type IntakeOutcome =
  /** The request fails the lead's rules: every field's Russian message; nothing stored */
  | { readonly kind: 'invalid'; readonly errors: Record<string, string> }
  /** Stored now (created), or the same request again with a known key (the first lead) */
  | { readonly kind: 'stored'; readonly created: boolean; readonly id: number; readonly createdAt: string }
  /** The database is away: the lead is on disk in the journal and is stored when it is back */
  | { readonly kind: 'journaled'; readonly createdAt: string }
  /** The idempotency key came with another request before: nothing stored */
  | { readonly kind: 'conflict' }
  /** The database refused a value of the lead (the input's fault): nothing stored */
  | { readonly kind: 'refused' }
  /** Neither the database nor the journal can take the lead now: nothing promised */
  | { readonly kind: 'unavailable'; readonly retryAfterSeconds: number }

/** A lead as journaled: everything storeLead needs except the channels (today's, on replay). */
export type JournaledLead = LeadRecord & { readonly at: string; readonly idempotencyKey: string }

interface IntakeDeps {
  readonly db: Db
  readonly content: ContentService
  readonly journal: LeadJournal<JournaledLead>
  readonly delivery: { readonly channels: readonly DeliveryChannel[]; wake(): void }
  readonly log: FastifyBaseLogger
  /** A lead sent sooner than this after the form was shown is spam (LEAD_MIN_FILL_SECONDS) */
  readonly minFillSeconds: number
}

/** How long a client is asked to wait when the lead could be neither stored nor journaled. */
const RETRY_AFTER_SECONDS = 60

const validate = validateLeadRequest as ((value: unknown) => value is LeadRequest) & { errors?: ErrorObject[] | null }

/** A record the store takes from the journal but not with this key again: it goes to dead letters. */
class KeyReusedError extends Error {
  readonly code = 'IDEMPOTENCY_KEY_REUSED'
  constructor() {
    super('idempotency key already used by another request')
  }
}

export function createLeadIntake(deps: IntakeDeps) {
  const { db, content, journal, delivery, log } = deps

  // The consent text's version by page, remembered, so a lead journaled during an outage still
  // records which text the visitor agreed to.
  const consentVersions = new Map<string, string>()
  // A lead never waits for the route map to take in other processes' writes (an import's steps):
  // its origin and consent text come from the map at hand (ContentService's 'latest').
  const fillNow = (text: string) => content.fillDocument(text, 'latest')
  async function consentVersionAt(sourceUrl: string): Promise<string> {
    let consentUrl: string | null = null
    try {
      const site = await content.getSite(new URL(sourceUrl, 'http://localhost').pathname, 'latest')
      consentUrl = site?.consentUrl ?? null
      const version = (await findConsentText(db, consentUrl, fillNow))?.version ?? CONSENT_VERSION_LABEL_ONLY
      consentVersions.set(consentUrl ?? '', version)
      return version
    } catch {
      return consentVersions.get(consentUrl ?? '') ?? CONSENT_VERSION_UNAVAILABLE
    }
  }

  /** The rules: field messages, or the request with its key and the key's hash. */
  function judge(
    submission: LeadSubmission,
  ): { errors: Record<string, string> } | { body: LeadRequest; key: string | null; hash: string } {
    const errors = validate(submission.body) ? {} : fieldErrorsFromAjv(validate.errors ?? [])
    for (const field of submission.unknownFields ?? []) errors[field] ??= messagesRu.any.unknown
    const body = submission.body as LeadRequest
    const idempotency = idempotencyKeyOf(submission.idempotencyHeader, body)
    Object.assign(errors, idempotency.error)
    if (Object.keys(errors).length > 0) return { errors }
    return { body, key: idempotency.key, hash: requestHash(body) }
  }

  async function journalLead(record: LeadRecord): Promise<IntakeOutcome> {
    const at = new Date().toISOString()
    try {
      await journal.append(
        capLeadRecord({ ...record, at, idempotencyKey: record.idempotencyKey ?? `journal-${randomUUID()}` }),
      )
    } catch (error) {
      if (error instanceof JournalFullError) log.error('lead journal full: leads refused with 503 until it drains')
      else log.error({ code: (error as { code?: string }).code }, 'lead not journaled either')
      return { kind: 'unavailable', retryAfterSeconds: RETRY_AFTER_SECONDS }
    }
    log.warn({ spam: record.spam }, 'lead journaled: stored once the database is back')
    return { kind: 'journaled', createdAt: at }
  }

  return {
    /** Judges a lead request and stores it, journals it, or says why not. Throws only for a fault of ours (500). */
    async submit(submission: LeadSubmission): Promise<IntakeOutcome> {
      const judged = judge(submission)
      if ('errors' in judged) return { kind: 'invalid', errors: judged.errors }
      const { body, key, hash } = judged
      const spam = isSpam(body, deps.minFillSeconds)
      const sourceUrl = sourcePath(submission.referer, body)
      const lines = await checkLines(db, body.lines ?? [])
      if ('errors' in lines) return { kind: 'invalid', errors: lines.errors }
      const record: LeadRecord = {
        lines: lines.lines,
        lead: leadOf(body),
        spam,
        idempotencyKey: key,
        requestHash: hash,
        origin: {
          sourceUrl,
          product: await productAt(content, sourceUrl).catch(() => null),
          utm: body.utm ?? null,
        },
        consent: {
          ip: submission.ip,
          userAgent: submission.userAgent ?? null,
          version: await consentVersionAt(sourceUrl),
        },
      }
      let stored
      try {
        stored = await storeLead(db, { ...record, channels: delivery.channels })
      } catch (error) {
        // The code and the driver's message only: neither carries the lead's values.
        const details = { code: (error as { code?: string }).code, message: (error as Error).message }
        if (isDatabaseUnavailable(error)) {
          log.warn(details, 'lead not stored: the database is unavailable')
          return journalLead(record)
        }
        if (isRefusedInput(error)) {
          log.info(details, 'lead refused by the database')
          return { kind: 'refused' }
        }
        log.error(details, 'lead not stored')
        throw error
      }
      if (stored.status === 'conflict') return { kind: 'conflict' }
      const created = stored.status === 'created'
      log.info({ leadId: stored.id, created, spam }, 'lead stored')
      // After the answer: delivery never holds up the 201.
      if (created && !spam) setImmediate(() => delivery.wake())
      return { kind: 'stored', created, id: stored.id, createdAt: stored.createdAt }
    },

    /** Stores what the journal holds; a record refused for good goes to the dead-letter file. */
    async drainJournal() {
      const result = await journal.drain(async (entry) => {
        const outcome = await storeLead(db, { ...entry, channels: entry.spam ? [] : delivery.channels })
        if (outcome.status === 'conflict') throw new KeyReusedError()
      })
      if (result.stored > 0) delivery.wake()
      return result
    },

    /** The consent text the form links to, for the page at `path`. */
    async consentText(path: string) {
      const site = await content.getSite(path)
      return findConsentText(db, site?.consentUrl ?? null, (text) => content.fillDocument(text))
    },
  }
}

export type LeadIntake = ReturnType<typeof createLeadIntake>
