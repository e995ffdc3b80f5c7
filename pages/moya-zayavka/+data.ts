// https://vike.dev/data — server-only: the list in the visitor's cookie with today's titles and
// prices (pageContext.requestList), and the lead form's fill time and idempotency key, made on the
// server so the no-JS form carries them and the hydrated form keeps the same values.
import type { PageContextServer } from 'vike/types'
import { requestListOfCookies } from '../../src/lead/request-list'
import type { RequestListView } from '../../src/lead/request-list-view'

export type Data = { view: RequestListView; startedAt: number; idempotencyKey: string }

export async function data(pageContext: PageContextServer): Promise<Data> {
  const source = pageContext.requestList
  if (!source) throw new Error('pageContext.requestList is missing: render pages through the Vitrina server')
  const posted = pageContext.leadFormState
  return {
    view: await source.view(requestListOfCookies(pageContext.headers?.cookie)),
    startedAt: posted?.startedAt ?? Date.now(),
    idempotencyKey: posted?.idempotencyKey ?? crypto.randomUUID(),
  }
}
