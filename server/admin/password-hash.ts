// The owner's password as stored (docs/decisions/038-first-sign-in.md): scrypt from node:crypto,
// memory-hard, maintained with Node itself, no native package to build. The stored text names its
// parameters (`scrypt$N$r$p$salt$key`), so a later release may raise them and still check the
// passwords kept before. N=2^15, r=8, p=3 is one of OWASP's equivalent scrypt settings
// (Password Storage Cheat Sheet): 32 MiB and a few hundred ms a hash, bounded by the sign-in limit.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { PASSWORD_LIMITS } from '../../src/admin/admin-password'

const PARAMS = Object.freeze({ N: 2 ** 15, r: 8, p: 3 })
const KEY_BYTES = 32
const SALT_BYTES = 16

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem above 128·N·r, which is exactly Node's default limit at N=2^15, r=8.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/** The text to store for `password`: a fresh salt and the derived key. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, PARAMS)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** Whether `password` is the one `stored` was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$')
  if (kind !== 'scrypt' || key === undefined || password.length > PASSWORD_LIMITS.max) return false
  const expected = Buffer.from(key, 'base64')
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  if (expected.length !== KEY_BYTES || ![params.N, params.r, params.p].every(Number.isSafeInteger)) return false
  const actual = await derive(password, Buffer.from(salt, 'base64'), params)
  return timingSafeEqual(actual, expected)
}
