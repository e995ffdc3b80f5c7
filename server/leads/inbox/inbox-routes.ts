// The back office's lead inbox (docs/contract.md, "Back office"), for the owner only (session
// or token, the same check as every admin API):
//   GET   /api/admin/leads?tab&q&after&pageSize  a page of leads, newest first, with tab counts and
//                                                `next: { after }` (keyset on createdAt, id); `page` still works
//   GET   /api/admin/leads/latest                the newest lead's id (the inbox polls it)
//   PATCH /api/admin/leads/:id                   { status }, { spam: false } and/or { note } (the manager's note)
//   POST  /api/admin/leads/:id/resend            its deliveries queued again
//   GET   /api/admin/leads.csv                   the file `npm run leads -- export` writes, streamed
//   GET   /api/admin/leads/dead-letters          leads the database refused for good (the journal's dead letters)
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  LEAD_NOTE_MAX,
  LEAD_STATUSES,
  LEAD_TABS,
  type AdminDeadLetter,
  type AdminLeadStatus,
  type LeadTab,
} from '../../../src/admin/admin-leads'
import type { Config } from '../../config/config'
import { HttpError } from '../../http/http-error'
import { leadsCsvChunks } from './lead-csv'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import type { JournaledLead } from '../intake/intake'
import type { DeadLetter } from '../intake/journal'
import {
  changeLead,
  exportLeadPages,
  latestLeadId,
  listLeads,
  resendLead,
  type LeadCursor,
} from '../store/lead-queries'
import { routeOf } from '../../http/route-path'
import { cleanText, hasForbiddenCharacters } from '../../../src/validation/plain-text'
import { ADMIN_API_PATHS } from '../../../src/site/paths'

const MAX_PAGE_SIZE = 100
/** Offset paging reads every skipped row: past this many, the inbox pages with `after` */
const MAX_OFFSET = 10_000
const MAX_QUERY_LENGTH = 200
/** Dead letters in one answer: a long outage with a bad record of every kind stays one screen */
const MAX_DEAD_LETTERS = 500

function positiveInteger(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new HttpError(400, `Параметр ${name}: целое число от 1 до ${max}`, 'invalid_query', {
      [name]: `Целое число от 1 до ${max}`,
    })
  }
  return Number(raw)
}

/** `after`: the last lead of the previous page, as `<createdAt>~<id>` (the answer's next.after). */
function leadCursor(raw: unknown): LeadCursor | null {
  if (raw === undefined || raw === '') return null
  const match = typeof raw === 'string' ? /^([0-9T:.Z+-]{10,40})~([1-9]\d{0,9})$/.exec(raw) : null
  if (!match || Number(match[2]) > 2147483647) {
    throw new HttpError(400, 'Параметр after: значение next.after из предыдущего ответа', 'invalid_query', {
      after: 'Ожидается значение next.after',
    })
  }
  return { createdAt: match[1], id: Number(match[2]) }
}

function leadId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2147483647) {
    throw new HttpError(404, 'Заявка не найдена', 'not_found')
  }
  return Number(raw)
}

type LeadChange = { status?: AdminLeadStatus; spam?: false; note?: string | null }

/** The manager's note: text up to LEAD_NOTE_MAX characters, cleaned; empty or null clears it. */
function leadNote(value: unknown): string | null | { error: string } {
  if (value === null) return null
  if (typeof value !== 'string') return { error: 'Заметка: текст или null' }
  if (hasForbiddenCharacters(value, 'multi-line')) return { error: 'Заметка содержит недопустимые символы' }
  const note = cleanText(value, 'multi-line')
  if ([...note].length > LEAD_NOTE_MAX) return { error: `Заметка длиннее ${LEAD_NOTE_MAX} символов` }
  return note === '' ? null : note
}

/** The PATCH body: a known status, spam: false and/or the note, nothing else. */
function leadChange(body: unknown): LeadChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Ожидается JSON-объект: status, spam и/или note', 'validation_failed')
  }
  const errors: Record<string, string> = {}
  const change: LeadChange = {}
  for (const [key, value] of Object.entries(body)) {
    if (key === 'status') {
      if ((LEAD_STATUSES as readonly unknown[]).includes(value)) change.status = value as AdminLeadStatus
      else errors.status = 'Статус: new, in_progress или closed'
    } else if (key === 'spam') {
      if (value === false) change.spam = false
      else errors.spam = 'Можно только снять отметку «спам»: spam = false'
    } else if (key === 'note') {
      const note = leadNote(value)
      if (note !== null && typeof note === 'object') errors.note = note.error
      else change.note = note
    } else {
      errors[key] = 'Неизвестное поле'
    }
  }
  if (Object.keys(errors).length > 0)
    throw new HttpError(400, 'Некорректное изменение заявки', 'validation_failed', errors)
  if (change.status === undefined && change.spam === undefined && change.note === undefined) {
    throw new HttpError(400, 'Укажите status, spam или note', 'validation_failed')
  }
  return change
}

/** A dead letter as the inbox shows it; a record of an older release may lack fields. */
function adminDeadLetter({ movedAt, reason, entry }: DeadLetter<JournaledLead>): AdminDeadLetter {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return {
    sentAt: text(entry?.at),
    movedAt,
    reason,
    username: text(entry?.lead?.username),
    phone: text(entry?.lead?.phone),
    email: text(entry?.lead?.email),
    sourceUrl: entry?.origin?.sourceUrl ?? null,
  }
}

function csvFileName(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(at)
    .replace(/-/g, '')
  return `leads-${parts}.csv`
}

export async function leadRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  const now = () => app.adminSession.now()

  // Before the body is read: nothing about a lead is answered or changed without the owner.
  app.addHook('onRequest', async (request) => requireAdmin(await access(request)))

  app.get(routeOf(app, ADMIN_API_PATHS.leads), async (request) => {
    const query = request.query as Record<string, unknown>
    const tab = query.tab === undefined || query.tab === '' ? 'new' : query.tab
    if (!(LEAD_TABS as readonly unknown[]).includes(tab)) {
      throw new HttpError(400, 'Вкладка: new, in_progress, closed или spam', 'invalid_query', {
        tab: 'Неизвестная вкладка',
      })
    }
    const q = typeof query.q === 'string' ? query.q.slice(0, MAX_QUERY_LENGTH) : ''
    const pageSize = positiveInteger(query.pageSize, 'pageSize', 20, MAX_PAGE_SIZE)
    const page = positiveInteger(query.page, 'page', 1, Math.floor(MAX_OFFSET / pageSize) + 1)
    const after = leadCursor(query.after)
    const result = await listLeads(app.db, { tab: tab as LeadTab, q, page, pageSize, after })
    const next = result.next ? { after: `${result.next.createdAt}~${result.next.id}` } : null
    return { ...result, next, page: after ? null : page, pageSize }
  })

  app.get(routeOf(app, ADMIN_API_PATHS.latestLead), async () => ({ data: { id: await latestLeadId(app.db) } }))

  app.get(routeOf(app, ADMIN_API_PATHS.deadLetters), async () => {
    const letters = app.leadJournal.deadLetters()
    return { data: letters.slice(0, MAX_DEAD_LETTERS).map(adminDeadLetter), total: letters.length }
  })

  app.get(routeOf(app, ADMIN_API_PATHS.leadsCsv), async (_request, reply) => {
    // Streamed a page of leads at a time: memory stays the same at 100,000 leads (decision 028).
    const csv = Readable.from(leadsCsvChunks(exportLeadPages(app.db), config.siteTimezone))
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csvFileName(now(), config.siteTimezone)}"`)
      .send(csv)
  })

  app.patch(routeOf(app, ADMIN_API_PATHS.lead(':id')), async (request) => {
    const id = leadId(request)
    const change = leadChange(request.body)
    const result = await changeLead(app.db, id, change, app.leadDelivery.channels, now())
    if (!result) throw new HttpError(404, 'Заявка не найдена', 'not_found')
    if (result.queued) app.leadDelivery.wake()
    return { data: result.lead }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.resendLead(':id')), async (request) => {
    const result = await resendLead(app.db, leadId(request), app.leadDelivery.channels, now())
    if (result === null) throw new HttpError(404, 'Заявка не найдена', 'not_found')
    if (result === 'spam') throw new HttpError(409, 'Заявка помечена как спам', 'spam')
    app.leadDelivery.wake()
    return { data: result }
  })
}
