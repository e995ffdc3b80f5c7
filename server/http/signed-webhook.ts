// A POST signed per Standard Webhooks (https://www.standardwebhooks.com): the headers a receiver
// verifies with the `standardwebhooks` package and the shared secret. The lead's delivery
// (server/leads/delivery/channels/webhook.ts) and «Настройки»'s test call
// (server/settings/settings-checks.ts) send the same ones.
import type { Webhook } from 'standardwebhooks'

/** The headers of a call signed per Standard Webhooks: the lead's and the settings' test call alike. */
export function signedWebhookHeaders(signer: Webhook, id: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Vitrina lead webhook',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, body),
  }
}
