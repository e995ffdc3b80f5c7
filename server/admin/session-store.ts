// The back office's sessions (table adminSession): created at sign-in, looked up on every admin
// request, slid forward at most once a minute, deleted at sign-out. A row keeps the SHA-256 of
// the token, never the token, so a copy of the database signs nobody in.
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../data/db'

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
/** The sliding expiry is written back at most this often per session: not a write per request. */
const TOUCH_EVERY_MS = 60 * 1000

const tokenId = (token: string) => createHash('sha256').update(token).digest('hex')

export interface LiveSession {
  readonly token: string
  /** ISO 8601 UTC */
  readonly expiresAt: string
  /** The expiry moved forward with this request: the cookie is sent again with it */
  readonly touched: boolean
}

/** Starts a session signed by the key with this fingerprint; returns its token for the cookie. */
export async function createSession(db: Db, keyFingerprint: string, at: Date): Promise<LiveSession> {
  const token = randomBytes(32).toString('base64url')
  const now = at.toISOString()
  const expiresAt = new Date(at.getTime() + SESSION_IDLE_MS).toISOString()
  await db.deleteFrom('adminSession').where('expiresAt', '<=', now).execute()
  await db
    .insertInto('adminSession')
    .values({ id: tokenId(token), keyFingerprint, createdAt: now, lastSeenAt: now, expiresAt })
    .execute()
  return { token, expiresAt, touched: true }
}

/** The live session of this token and key, slid forward; null when unknown, expired or of another key. */
export async function findSession(
  db: Db,
  token: string,
  keyFingerprint: string,
  at: Date,
): Promise<LiveSession | null> {
  const id = tokenId(token)
  const row = await db
    .selectFrom('adminSession')
    .select(['lastSeenAt', 'expiresAt', 'keyFingerprint'])
    .where('id', '=', id)
    .executeTakeFirst()
  const now = at.toISOString()
  if (!row || row.keyFingerprint !== keyFingerprint || row.expiresAt <= now) return null
  if (at.getTime() - Date.parse(row.lastSeenAt) < TOUCH_EVERY_MS) {
    return { token, expiresAt: row.expiresAt, touched: false }
  }
  const expiresAt = new Date(at.getTime() + SESSION_IDLE_MS).toISOString()
  // Conditional on the expiry read: a sign-out (or an expiry) in between is not undone.
  const result = await db
    .updateTable('adminSession')
    .set({ lastSeenAt: now, expiresAt })
    .where('id', '=', id)
    .where('expiresAt', '>', now)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) return null
  return { token, expiresAt, touched: true }
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('adminSession').where('id', '=', tokenId(token)).execute()
}

/** Deletes every session signed with another key (the admin secret changed). */
export async function deleteSessionsOfOtherKeys(db: Db, keyFingerprint: string): Promise<void> {
  await db.deleteFrom('adminSession').where('keyFingerprint', '!=', keyFingerprint).execute()
}

/** Deletes every session but `keep` (a changed password ends the other sessions). */
export async function deleteSessionsExcept(db: Db, keep: LiveSession): Promise<void> {
  await db.deleteFrom('adminSession').where('id', '!=', tokenId(keep.token)).execute()
}

const SIGNING_SEED = 'admin.sessionSeed'

/**
 * The seed of the cookie's signing key while no admin secret is configured (only the owner's
 * password in the database signs in): random, made once and kept in the database, so every
 * worker and host signs alike. The first process to store it wins.
 */
export async function storedSigningSeed(db: Db): Promise<string> {
  const read = async () =>
    (await db.selectFrom('siteSetting').select('value').where('name', '=', SIGNING_SEED).executeTakeFirst())?.value
  const kept = await read()
  if (kept) return kept
  await db
    .insertInto('siteSetting')
    .values({ name: SIGNING_SEED, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  return (await read())!
}
