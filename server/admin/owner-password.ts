// The owner's password kept in the database, and the one-time links that let the owner choose it
// (docs/decisions/038-first-sign-in.md). A link's token is printed once, in the start line, and kept
// here only as its SHA-256 with an expiry: any PM2 worker or host on the database accepts it, it
// opens nothing from a backup, and it is spent the moment a password is set with it.
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../data/db'
import { writeTransaction } from '../data/write-transaction'

/** How long a printed link may be used. */
export const SETUP_LINK_TTL_MS = 60 * 60 * 1000

const OWNER_ROW = 1
const tokenId = (token: string) => createHash('sha256').update(token).digest('hex')

/** The stored hash of the owner's password, or null while none has been chosen. */
export async function readOwnerPassword(db: Db): Promise<string | null> {
  const row = await db.selectFrom('ownerPassword').select('hash').where('id', '=', OWNER_ROW).executeTakeFirst()
  return row?.hash ?? null
}

/** A new one-time link's token (128 bits of entropy and more); expired links are deleted. */
export async function issueSetupLink(db: Db, at: Date): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  const now = at.toISOString()
  await db.deleteFrom('ownerSetupLink').where('expiresAt', '<=', now).execute()
  await db
    .insertInto('ownerSetupLink')
    .values({ id: tokenId(token), createdAt: now, expiresAt: new Date(at.getTime() + SETUP_LINK_TTL_MS).toISOString() })
    .execute()
  return token
}

/** Whether the link's token is known and unexpired (read only: nothing is spent). */
export async function isSetupLinkLive(db: Db, token: string, at: Date): Promise<boolean> {
  const row = await db
    .selectFrom('ownerSetupLink')
    .select('id')
    .where('id', '=', tokenId(token))
    .where('expiresAt', '>', at.toISOString())
    .executeTakeFirst()
  return row !== undefined
}

class Refused extends Error {
  constructor(readonly reason: 'invalid_link' | 'already_set') {
    super(reason)
  }
}

/**
 * Spends the link and stores the first password, in one transaction: of two requests with one
 * link, or with two links at once, exactly one sets the password and the other changes nothing.
 */
export async function setFirstPassword(
  db: Db,
  token: string,
  hash: string,
  at: Date,
): Promise<'set' | 'invalid_link' | 'already_set'> {
  const now = at.toISOString()
  try {
    await writeTransaction(db, async (trx) => {
      // The password's row first: in PostgreSQL a second transaction waits on it here, before it
      // touches any link, so the first one's deletion of every link cannot deadlock with it.
      const stored = await trx
        .insertInto('ownerPassword')
        .values({ id: OWNER_ROW, hash, changedAt: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst()
      if (Number(stored.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Refused('already_set')
      const spent = await trx
        .deleteFrom('ownerSetupLink')
        .where('id', '=', tokenId(token))
        .where('expiresAt', '>', now)
        .executeTakeFirst()
      if (Number(spent.numDeletedRows) !== 1) throw new Refused('invalid_link')
      // The other printed links have nothing left to do.
      await trx.deleteFrom('ownerSetupLink').execute()
    })
    return 'set'
  } catch (error) {
    if (error instanceof Refused) return error.reason
    throw error
  }
}

/** Stores a new password (the owner changed it, or chose one while the token signed in). */
export async function storePassword(db: Db, hash: string, at: Date): Promise<void> {
  const changedAt = at.toISOString()
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto('ownerPassword')
      .values({ id: OWNER_ROW, hash, changedAt })
      .onConflict((oc) => oc.column('id').doUpdateSet({ hash, changedAt }))
      .execute()
    await trx.deleteFrom('ownerSetupLink').execute()
  })
}

/** Deletes every printed link: ADMIN_PASSWORD is set, so no link may choose another password. */
export async function deleteSetupLinks(db: Db): Promise<void> {
  await db.deleteFrom('ownerSetupLink').execute()
}
