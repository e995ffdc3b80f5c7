// The custom formats of our schemas, by name: what createAjv() adds to ajv, and what the
// generated validators (src/lead/lead-validators.generated.ts) call.
import { isCallablePhone } from '../format/phone'
import { isEmail } from './email'

export const formats = {
  // Replaces ajv-formats' ASCII-only e-mail check: the contract's limits are byte- and
  // label-based, and Cyrillic addresses must pass.
  email: { type: 'string', validate: isEmail },
  // A phone someone can call back: 10 to 15 digits, a Russian one exactly 11.
  phone: { type: 'string', validate: isCallablePhone },
} as const

/** String length in code points, as JSON Schema's maxLength counts it (a surrogate pair is one). */
export function ucs2length(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}
