// The 1C password is kept only as its scrypt hash (the owner's password's, admin/password-hash.ts): the owner copies it once, when it is generated,
// and the server needs no more than to check what 1C sends (docs/decisions/039-settings.md).
import { randomBytes, randomInt } from 'node:crypto'

// One way to keep a password: the owner's password's scrypt (docs/decisions/038-first-sign-in.md).
export { hashPassword, verifyPassword } from '../admin/password-hash'

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
