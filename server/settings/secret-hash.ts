// The 1C password is kept only as its scrypt hash: the owner copies it once, when it is generated,
// and the server needs no more than to check what 1C sends (docs/decisions/039-settings.md).
import { randomBytes, randomInt, scrypt, timingSafeEqual, type BinaryLike } from 'node:crypto'

const KEY_BYTES = 32
const derive = (password: BinaryLike, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, (error, key) => (error ? reject(error) : resolve(key))),
  )

/** `scrypt$<salt>$<key>`, both base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  return `scrypt$${salt.toString('base64')}$${(await derive(password, salt)).toString('base64')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, key] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !key) return false
  const expected = Buffer.from(key, 'base64')
  const given = await derive(password, Buffer.from(salt, 'base64'))
  return given.length === expected.length && timingSafeEqual(given, expected)
}

// No 0/O, 1/l/I: the owner may have to read it aloud or type it into 1C by hand.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'

/** 20 characters of a 57-letter alphabet: about 116 bits. */
export function generatePassword(length = 20): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
}

/** A Standard Webhooks signing secret: whsec_ and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}
