// The Content-Security-Policy of every HTML answer (docs/decisions/014-csp.md): scripts only by
// the rendering's nonce (Vike's, whose module imports inherit it) or by the hash of one of our own
// inline scripts, with 'strict-dynamic' so what they load may run; no 'unsafe-inline', no
// 'unsafe-eval'. A cached page keeps its nonce, bytes, pre-compressed variants and policy together.
import { createHash, randomBytes } from 'node:crypto'
import type { Config } from '../config'

export const CSP_REPORT_PATH = '/api/csp-report'

// Yandex Metrika's loader and what it sends and shows (https://yandex.ru/support/metrica/code/install-counter-csp.html).
const METRIKA_SCRIPT = ['https://mc.yandex.ru', 'https://yastatic.net']
const METRIKA_CONNECT = ['https://mc.yandex.ru', 'https://mc.yandex.com', 'wss://mc.yandex.ru']
const METRIKA_IMG = ['https://mc.yandex.ru', 'https://mc.yandex.com']

const SCRIPT_OPEN = /<script\b([^>]*)>/gi
const SCRIPT_CLOSE = /<\/script>/gi

/** Script types a browser acts on; speculation rules are allowed like scripts (by hash). */
const RUNNING_TYPES = new Set(['module', 'text/javascript', 'application/javascript', 'speculationrules'])

/** sha256 hashes of the inline scripts a browser would run (not JSON or JSON-LD data blocks). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  // Tags first, bodies only for the scripts that run: the page's JSON blocks (Vike's pageContext,
  // JSON-LD) are skipped over, never copied out, on every uncached rendering.
  const open = new RegExp(SCRIPT_OPEN)
  const close = new RegExp(SCRIPT_CLOSE)
  for (let tag = open.exec(html); tag !== null; tag = open.exec(html)) {
    close.lastIndex = open.lastIndex
    const end = close.exec(html)
    if (end === null) break
    const attributes = tag[1]
    open.lastIndex = close.lastIndex
    if (/\bsrc\s*=/i.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase()
    if (type && !RUNNING_TYPES.has(type)) continue
    const body = html.slice(tag.index + tag[0].length, end.index)
    hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`)
  }
  return [...hashes]
}

const NONCE_BYTES = 16
/** Random bytes drawn 4 KiB at a time: one randomBytes call per 256 nonces instead of one per page. */
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let poolOffset = 0

/** A fresh nonce for one rendering: 128 random bits, each byte of the pool used once. */
export function newNonce(): string {
  if (poolOffset + NONCE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES)
    poolOffset = 0
  }
  const nonce = pool.toString('base64url', poolOffset, poolOffset + NONCE_BYTES)
  poolOffset += NONCE_BYTES
  return nonce
}

/**
 * The policy of one HTML answer: Vike's scripts carry `nonce` (their module imports inherit it,
 * which a hash cannot give them), our own inline scripts (Metrika's snippet) are allowed by hash.
 */
export function contentSecurityPolicy(
  html: string,
  config: Pick<Config, 'mediaUrl' | 'metrikaId'>,
  nonce?: string,
): string {
  const scripts = [...(nonce ? [`'nonce-${nonce}'`] : []), ...inlineScriptHashes(html)]
  const { scriptHosts, rest } = policyParts(config)
  return `script-src 'strict-dynamic' ${scripts.join(' ')}${scriptHosts}; ${rest}`
}

type PolicyConfig = Pick<Config, 'mediaUrl' | 'metrikaId'>
const policyPartsByConfig = new WeakMap<PolicyConfig, { scriptHosts: string; rest: string }>()

/** What the policy takes from the config alone, made once per config object, not per page. */
function policyParts(config: PolicyConfig): { scriptHosts: string; rest: string } {
  let parts = policyPartsByConfig.get(config)
  if (!parts) {
    const metrika = config.metrikaId !== null
    const media = config.mediaUrl ? [config.mediaUrl] : []
    parts = {
      scriptHosts: metrika ? ` ${METRIKA_SCRIPT.join(' ')}` : '',
      rest: [
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",
        ['img-src', "'self'", 'data:', ...media, ...(metrika ? METRIKA_IMG : [])].join(' '),
        ['connect-src', "'self'", ...(metrika ? METRIKA_CONNECT : [])].join(' '),
        `report-uri ${CSP_REPORT_PATH}`,
      ].join('; '),
    }
    policyPartsByConfig.set(config, parts)
  }
  return parts
}

/** The other headers of an HTML answer that limit what a page may do. */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): Record<string, string> {
  return {
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'cross-origin-opener-policy': 'same-origin',
    ...(config.publicUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  }
}
