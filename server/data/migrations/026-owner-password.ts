// Forward-only: a released migration is never edited, a new file follows it.
// The first sign-in without a terminal (issue 45, docs/decisions/038-first-sign-in.md): the
// owner's password, chosen in the back office, kept as its scrypt hash; and the one-time links
// that let the owner choose it, kept as the SHA-256 of their token with an expiry, so every PM2
// worker and host accepts a link whichever process printed it, and a copy of the database opens
// nothing.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ownerPassword')
    // Always 1: the site has one owner's password
    .addColumn('id', 'integer', (c) => c.primaryKey())
    // `scrypt$N$r$p$salt$key` (server/admin/password-hash.ts)
    .addColumn('hash', 'varchar(200)', (c) => c.notNull())
    // ISO 8601 UTC
    .addColumn('changedAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('ownerSetupLink')
    // The SHA-256 of the link's random token
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('expiresAt', 'varchar(40)', (c) => c.notNull())
    .execute()
}
