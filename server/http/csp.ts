// The Content-Security-Policy of every HTML answer (docs/decisions/014-csp.md): everything of the
// site's own origin by default (default-src 'self'), images also from MEDIA_URL; scripts only by
// the rendering's nonce (Vike's, whose module imports inherit it), with 'strict-dynamic' so what
// they load may run; no 'unsafe-inline', no 'unsafe-eval'. The site writes no inline script of its
// own: the speculation rules come by header (docs/decisions/046-speculation-rules-header.md). A
// cached page keeps its nonce, bytes, pre-compressed variants and policy together.
import { createHash, randomBytes } from 'node:crypto'
import { PATHS } from '../../src/site/paths'
import type { Config } from '../config/config'

// Yandex Metrika's loader and what it sends and shows (https://yandex.ru/support/metrica/code/install-counter-csp.html).
const METRIKA_SCRIPT = ['https://mc.yandex.ru', 'https://yastatic.net']
const METRIKA_CONNECT = ['https://mc.yandex.ru', 'https://mc.yandex.com', 'wss://mc.yandex.ru']
const METRIKA_IMG = ['https://mc.yandex.ru', 'https://mc.yandex.com']
// Webvisor and the click map open the page in a frame of Metrika's own.
const METRIKA_FRAME = ['https://mc.yandex.ru', 'https://mc.yandex.com']

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
 * The policy of one HTML answer: Vike's scripts carry the rendering's `nonce` (their module imports
 * inherit it, which a hash cannot give them). Nothing is read from the page: a script that found
 * its way into it any other way does not run.
 */
export function contentSecurityPolicy(config: PolicyConfig, nonce?: string, styles: readonly string[] = []): string {
  const { scripts, rest } = policyParts(config)
  const script = `script-src 'strict-dynamic'${nonce ? ` 'nonce-${nonce}'` : ''}${scripts}`
  // Stylesheets of the site's own origin only; an answer with an inline <style> of its own (the
  // outage page) names it by hash. In development Vite injects each stylesheet of a page as a
  // <style> element (HMR), so there a page's inline styles are allowed.
  const inline = styles.length > 0 ? styles.map(sha256) : config.isProduction === false ? ["'unsafe-inline'"] : []
  const style = ['style-src', "'self'", ...inline].join(' ')
  return `default-src 'self'; ${script}; ${style}; ${rest}`
}

type PolicyConfig = Pick<Config, 'mediaUrl' | 'metrikaId'> & Partial<Pick<Config, 'metrikaTagUrl' | 'isProduction'>>
const policyPartsByConfig = new WeakMap<PolicyConfig, { scripts: string; rest: string }>()

const sha256 = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`

/** What the policy takes from the config alone, made once per config object, not per page. */
function policyParts(config: PolicyConfig): { scripts: string; rest: string } {
  let parts = policyPartsByConfig.get(config)
  if (!parts) {
    const metrika = config.metrikaId !== null
    const media = config.mediaUrl ? [config.mediaUrl] : []
    // With a counter, its script's origin: the cookie notice's code (src/site/cookie-notice.ts,
    // part of the nonce'd client) loads it only after consent, and 'strict-dynamic' lets it run.
    const tagOrigin = config.metrikaTagUrl ? [new URL(config.metrikaTagUrl).origin] : []
    const counter = (hosts: string[]) => (metrika ? [...new Set([...hosts, ...tagOrigin])] : [])
    parts = {
      scripts: counter(METRIKA_SCRIPT)
        .map((source) => ` ${source}`)
        .join(''),
      rest: [
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",
        ['img-src', "'self'", 'data:', ...media, ...counter(METRIKA_IMG)].join(' '),
        ['connect-src', "'self'", ...counter(METRIKA_CONNECT)].join(' '),
        ['frame-src', "'self'", ...counter(METRIKA_FRAME)].join(' '),
        `report-uri ${PATHS.cspReport}`,
      ].join('; '),
    }
    policyPartsByConfig.set(config, parts)
  }
  return parts
}
