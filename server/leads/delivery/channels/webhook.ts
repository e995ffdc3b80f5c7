// The webhook: a JSON POST of the lead signed per Standard Webhooks (https://www.standardwebhooks.com),
// so a receiver verifies it with the `standardwebhooks` package and the shared secret. The
// webhook-id and Idempotency-Key are the lead's, the same on every retry. 2xx is delivered;
// 408, 429, 5xx and timeouts are retried; any other 4xx is final.
import { Webhook } from 'standardwebhooks'
import type { DeliveryConfig } from '../../../config/delivery-config'
import type { DeliverableLead } from '../../store/stored-lead'
import { leadTime, sourcePageUrl, type MessageContext } from './lead-message'
import { rublesNumber } from '../../../../src/format/money'
import { type Channel, DeliveryError, HTTP_TIMEOUT_MS, retryAfterMs } from './channel'
import { signedWebhookHeaders } from '../../../http/signed-webhook'
import { lineTitle } from '../../store/lead-lines'

/** The event type of a new lead in the payload. */
const LEAD_EVENT = 'lead.created'

const rubles = (kopecks: number | null) => (kopecks === null ? null : rublesNumber(kopecks))

/**
 * The lead.created payload (README's "Lead delivery", docs/contract.md §3): `lines` are what the
 * lead asked for as it was when sent, prices in rubles with at most two decimals (null: «по
 * запросу»); `total` likewise, null unless every line has a price; `[]` and null for a lead without lines.
 */
export function webhookPayload(lead: DeliverableLead, ctx: MessageContext, at = new Date()) {
  return {
    type: LEAD_EVENT,
    timestamp: at.toISOString(),
    data: {
      id: lead.id,
      createdAt: lead.createdAt,
      localTime: leadTime(lead, ctx),
      name: lead.username,
      phone: lead.phone,
      phoneE164: lead.phoneE164,
      email: lead.email,
      sourceUrl: sourcePageUrl(lead, ctx),
      product: lead.productId === null ? null : { id: lead.productId, title: lead.productTitle },
      utm: lead.utm,
      lines: lead.lines.map((line) => ({
        productId: line.productId,
        // The variant asked for (decision 043): its id, and its title in the line's
        variantId: line.variantId ?? null,
        title: lineTitle(line),
        article: line.article,
        price: rubles(line.price),
        quantity: line.quantity,
        sum: rubles(line.sum),
      })),
      total: rubles(lead.total),
      currency: 'RUB',
    },
  }
}

function webhookMessageId(lead: DeliverableLead): string {
  return `lead-${lead.id}`
}

export function webhookChannel(config: NonNullable<DeliveryConfig['webhook']>, ctx: MessageContext): Channel {
  const signer = new Webhook(config.secret)
  return {
    name: 'webhook',
    async send(lead) {
      const at = new Date()
      const body = JSON.stringify(webhookPayload(lead, ctx, at))
      const id = webhookMessageId(lead)
      let statusCode: number
      let retryAfter: string | string[] | undefined
      const { request } = await import('undici') // on first use (decision 031, "Start-up")
      try {
        const response = await request(config.url, {
          method: 'POST',
          headers: { ...signedWebhookHeaders(signer, id, at, body), 'idempotency-key': id },
          body,
          headersTimeout: HTTP_TIMEOUT_MS,
          bodyTimeout: HTTP_TIMEOUT_MS,
          signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        })
        statusCode = response.statusCode
        retryAfter = response.headers['retry-after']
        await response.body.dump()
      } catch (error) {
        throw new DeliveryError(
          `Webhook unreachable: ${(error as { code?: string }).code ?? (error as Error).name ?? 'error'}`,
        )
      }
      if (statusCode >= 200 && statusCode < 300) return
      const retryable = statusCode === 408 || statusCode === 429 || statusCode >= 500
      throw new DeliveryError(`Webhook answered ${statusCode}`, {
        permanent: !retryable,
        retryAfterMs: retryable ? retryAfterMs(retryAfter) : undefined,
      })
    },
    async close() {},
  }
}
