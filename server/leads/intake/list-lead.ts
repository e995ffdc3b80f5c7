// A lead sent from the request list or for one product (docs/decisions/041-request-list.md), as
// POST /api/feedback sees it: the plain form carries the lines as one hidden field (`12x2.45x1`,
// the cookie's notation), the list page's form posts to `/api/feedback?spisok=1`. Once such a
// lead is accepted (stored or journaled), its products leave the visitor's list; a refused one
// comes back on the page it was sent from.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import {
  parseRequestList,
  requestListCookie,
  requestListOfCookies,
  sameLine,
  type RequestLine,
} from '../../../src/lead/request-list'
import { PATHS } from '../../../src/site/paths'

/** The query flag of the list page's form. */
export const FROM_LIST_QUERY = 'spisok'

/** The urlencoded form's `lines` text as the JSON shape's array (an empty field: no lines). */
export function listLinesOfForm(lead: Record<string, unknown>): void {
  if (typeof lead.lines !== 'string') return
  if (lead.lines.trim() === '') delete lead.lines
  else lead.lines = parseRequestList(lead.lines)
}

function fromList(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.[FROM_LIST_QUERY] === '1'
}

function sentLines(request: FastifyRequest): readonly RequestLine[] {
  const lines = (request.body as { lines?: unknown } | null)?.lines
  return Array.isArray(lines) ? (lines as RequestLine[]) : []
}

/** The page a refused plain form is shown again on. */
export function formPageOf(request: FastifyRequest): string {
  if (fromList(request)) return PATHS.requestList
  const lines = sentLines(request)
  const productId = lines.length === 1 ? Number(lines[0]?.productId) : NaN
  return Number.isSafeInteger(productId) && productId > 0 ? `${PATHS.leadForm}?tovar=${productId}` : PATHS.leadForm
}

/** The sent products leave the visitor's list (what was added meanwhile in another tab stays). */
export function afterListSent(request: FastifyRequest, reply: FastifyReply, config: Config): void {
  if (!fromList(request)) return
  const sent = sentLines(request)
  if (sent.length === 0) return
  // A line is its product and variant (decision 043): the product's other variants stay.
  const left = requestListOfCookies(request.headers.cookie).filter((line) => !sent.some((s) => sameLine(s, line)))
  reply.header('set-cookie', requestListCookie(left, config.publicUrl.startsWith('https:')))
}
