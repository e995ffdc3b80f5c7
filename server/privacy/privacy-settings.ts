// The privacy feature's small settings (table privacySetting): the operator's details the owner
// types in the back office, and the key that hashes client addresses. One key, one row.
import { createHmac, randomBytes } from 'node:crypto'
import type { Db } from '../data/db'

const ADDRESS_KEY = 'addressKey'

export async function readSetting(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom('privacySetting').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value ?? null
}

export async function writeSettings(db: Db, values: Readonly<Record<string, string>>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db
      .insertInto('privacySetting')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute()
  }
}

const addressKeys = new WeakMap<Db, Promise<Buffer>>()

/**
 * This site's own key for hashing client addresses: random, made once, kept in the database so
 * every process and host hashes alike (and a person's cookie choices can be found from a lead's
 * address), never shipped anywhere. Without it an IPv4 hash is undone by trying all 2^32.
 */
function addressKey(db: Db): Promise<Buffer> {
  let key = addressKeys.get(db)
  if (!key) {
    key = (async () => {
      await db
        .insertInto('privacySetting')
        .values({ key: ADDRESS_KEY, value: randomBytes(32).toString('base64') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute()
      return Buffer.from((await readSetting(db, ADDRESS_KEY))!, 'base64')
    })()
    key.catch(() => addressKeys.delete(db))
    addressKeys.set(db, key)
  }
  return key
}

/** The client address as the logs of personal data keep it: an HMAC, 32 hex digits. */
export async function hashAddress(db: Db, address: string): Promise<string> {
  return createHmac('sha256', await addressKey(db))
    .update(address)
    .digest('hex')
    .slice(0, 32)
}
