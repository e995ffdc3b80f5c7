// What every delivery channel is: a name and a send that either resolves (delivered) or throws a
// DeliveryError saying whether to retry and when.
import type { DeliveryChannel } from '../../../data/schema'
import type { DeliverableLead } from '../../store/stored-lead'
import type { DeliveryFailure } from '../../store/delivery-outbox'

export interface Channel {
  readonly name: DeliveryChannel
  /** Resolves once the receiver has the message; may be called again for the same lead. */
  send(lead: DeliverableLead): Promise<void>
  close(): Promise<void>
}

export class DeliveryError extends Error implements DeliveryFailure {
  readonly permanent: boolean
  readonly retryAfterMs: number | undefined

  constructor(message: string, options: { permanent?: boolean; retryAfterMs?: number } = {}) {
    super(message)
    this.name = 'DeliveryError'
    this.permanent = options.permanent ?? false
    this.retryAfterMs = options.retryAfterMs
  }
}

/** The failure of any thrown value, in words safe to keep and log (no secrets, no URLs). */
export function toFailure(error: unknown): DeliveryFailure {
  if (error instanceof DeliveryError) return error
  const { code, message } = error as { code?: unknown; message?: unknown }
  const text = [typeof code === 'string' ? code : null, typeof message === 'string' ? message : String(error)]
    .filter(Boolean)
    .join(': ')
  return { message: text }
}

/** How long a receiver's Retry-After (seconds or an HTTP date) asks to wait, if it says. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The per-request limit of every HTTP channel: connecting, waiting for headers, reading. */
export const HTTP_TIMEOUT_MS = 10_000
