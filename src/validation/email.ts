// The limits of docs/contract.md §4 follow RFC 5321 §4.5.3.1:
// 254 characters in all, 64 bytes of local part, labels of at most 63 characters.
const EMAIL_MAX_LENGTH = 254
const EMAIL_LOCAL_PART_MAX_BYTES = 64
const EMAIL_DOMAIN_LABEL_MAX_LENGTH = 63

// Unquoted dot-atom characters of RFC 5322, widened to any Unicode letter, digit and mark
// (RFC 6531) so that «иван@пример.рф» passes. Quoted local parts are left out on purpose:
// nobody types them into a lead form, and they would let spaces and «@» in.
const LOCAL_ATOM = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u
// A domain label: letters, digits and inner hyphens. No TLD list, as the spec asks.
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u

const encoder = new TextEncoder()

// Characters as a reader counts them: code points, like ajv's maxLength, not UTF-16 units.
function codePointLength(text: string): number {
  return Array.from(text).length
}

/**
 * Whether `value` is an e-mail address within the spec's limits: at most 254 characters, exactly
 * one «@», a local part of at most 64 bytes in UTF-8 (a Cyrillic letter takes 2), and a domain of
 * at least two dot-separated labels of 1 to 63 characters each. Cyrillic is allowed throughout.
 *
 * @example isEmail('иван@пример.рф') // true
 * @example isEmail('a@localhost') // false: one label
 */
export function isEmail(value: string): boolean {
  if (codePointLength(value) > EMAIL_MAX_LENGTH) return false
  const parts = value.split('@')
  if (parts.length !== 2) return false
  const [local, domain] = parts

  if (local === '' || encoder.encode(local).length > EMAIL_LOCAL_PART_MAX_BYTES) return false
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false

  const labels = domain.split('.')
  if (labels.length < 2) return false
  return labels.every((label) => codePointLength(label) <= EMAIL_DOMAIN_LABEL_MAX_LENGTH && DOMAIN_LABEL.test(label))
}
