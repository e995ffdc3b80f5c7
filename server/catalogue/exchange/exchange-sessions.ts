// The 1C exchange's sessions, kept in the database (docs/decisions/032-1c-exchange.md): behind PM2 or
// a balancer, 1C's calls of one exchange land on any process or host, and each finds the session
// `checkauth` made. The cookie 1C holds is never stored, only its hash. A session and its files
// (exchange-files.ts) go when it ends, expires (a day after its last call) or is the least recently
// used of more than `sessions` open; a run it left unfinished is marked failed.
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../../data/db'
import { EXCHANGE_LIMITS, dropFiles } from './exchange-files'

/** How often a session's expiry is moved on by a call (one write a minute at most, not one a call) */
const SLIDE_AFTER_MS = 60_000

/** What a run whose session ended before 1C finished it says in the log */
export const ABANDONED = 'Обмен прерван: 1С перестала обращаться к сайту, сеанс обмена закрыт'

export const COOKIE_NAME = 'vitrina_1c'

const hashOf = (cookie: string) => createHash('sha256').update(cookie).digest('hex')

export interface ExchangeSession {
  readonly id: string
  readonly runId: number | null
  readonly state: string | null
}

/**
 * A new session: the cookie 1C sends back on every later call. Expired sessions and their files go,
 * and so do the least recently used ones past the bound (`sessions`): an exchange 1C left never
 * keeps a new one out, and one under way (its calls move its expiry on) is the last to go.
 */
export async function openSession(db: Db, now: Date): Promise<string> {
  const cookie = randomBytes(32).toString('base64url')
  const at = now.toISOString()
  const expired = await db.selectFrom('exchangeSession').select('id').where('expiresAt', '<', at).execute()
  for (const { id } of expired) await dropSession(db, id, now)
  const open = await db.selectFrom('exchangeSession').select('id').orderBy('expiresAt', 'desc').orderBy('id').execute()
  for (const { id } of open.slice(EXCHANGE_LIMITS.sessions - 1)) await dropSession(db, id, now)
  await db
    .insertInto('exchangeSession')
    .values({
      id: hashOf(cookie),
      createdAt: at,
      expiresAt: new Date(now.getTime() + EXCHANGE_LIMITS.sessionMs).toISOString(),
      runId: null,
      state: null,
    })
    .execute()
  return cookie
}

/** The session a cookie names, or null when there is none or it expired. */
export async function findSession(db: Db, cookie: string | undefined, now: Date): Promise<ExchangeSession | null> {
  if (!cookie || cookie.length > 200) return null
  const row = await db
    .selectFrom('exchangeSession')
    .select(['id', 'runId', 'state', 'expiresAt'])
    .where('id', '=', hashOf(cookie))
    .executeTakeFirst()
  if (!row || row.expiresAt < now.toISOString()) return null
  const expiresAt = new Date(now.getTime() + EXCHANGE_LIMITS.sessionMs)
  if (Date.parse(row.expiresAt) < expiresAt.getTime() - SLIDE_AFTER_MS) {
    await db
      .updateTable('exchangeSession')
      .set({ expiresAt: expiresAt.toISOString() })
      .where('id', '=', row.id)
      .execute()
  }
  return { id: row.id, runId: row.runId, state: row.state }
}

/** The run a session holds, if 1C left it unfinished, is marked failed: 1C stopped calling. */
async function abandonRun(db: Db, sessionId: string, now: Date): Promise<void> {
  const session = await db.selectFrom('exchangeSession').select('runId').where('id', '=', sessionId).executeTakeFirst()
  if (session?.runId == null) return
  await db
    .updateTable('exchangeRun')
    .set({ status: 'failure', finishedAt: now.toISOString(), message: ABANDONED })
    .where('id', '=', session.runId)
    .where('status', '=', 'running')
    .execute()
}

/** A session and its files go; a run it left unfinished is marked failed. */
export async function dropSession(db: Db, id: string, now: Date): Promise<void> {
  await abandonRun(db, id, now)
  await dropFiles(db, id)
  await db.deleteFrom('exchangeSession').where('id', '=', id).execute()
}

/** `init`: the session starts over, without files or an import under way (one left unfinished failed). */
export async function resetSession(db: Db, id: string, now: Date): Promise<void> {
  await abandonRun(db, id, now)
  await dropFiles(db, id)
  await db.updateTable('exchangeSession').set({ state: null, runId: null }).where('id', '=', id).execute()
}
