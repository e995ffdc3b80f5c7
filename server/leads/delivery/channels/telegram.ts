// Telegram: the Bot API's sendMessage to every TELEGRAM_CHAT_ID, in HTML mode with every visitor
// value escaped, and without the visitor's personal data unless TELEGRAM_FULL_TEXT=true. A 429
// waits the retry_after Telegram names; any other 4xx (a wrong chat, a blocked bot, a bad token) is
// final; 5xx and network failures are retried.
import type { DeliveryConfig } from '../../../config/delivery-config'
import { messageTelegramHtml, messageTelegramPlainHtml, type MessageContext } from './lead-message'
import { type Channel, DeliveryError, HTTP_TIMEOUT_MS } from './channel'

interface BotApiAnswer {
  ok?: boolean
  description?: string
  parameters?: { retry_after?: number }
}

export function telegramChannel(config: NonNullable<DeliveryConfig['telegram']>, ctx: MessageContext): Channel {
  // The token is part of the path: this URL is never logged or kept in an error.
  const endpoint = `${config.apiUrl}/bot${config.botToken}/sendMessage`

  async function sendTo(chatId: string, text: string): Promise<void> {
    let statusCode: number
    let answer: BotApiAnswer = {}
    // undici on first use: most processes never send a message (decision 031, "Start-up")
    const { request } = await import('undici')
    try {
      const response = await request(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: chatId,
          text,
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
        }),
        headersTimeout: HTTP_TIMEOUT_MS,
        bodyTimeout: HTTP_TIMEOUT_MS,
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      })
      statusCode = response.statusCode
      answer = (await response.body.json().catch(() => ({}))) as BotApiAnswer
    } catch (error) {
      throw new DeliveryError(`Telegram unreachable: ${(error as { code?: string }).code ?? (error as Error).name}`)
    }
    if (statusCode >= 200 && statusCode < 300 && answer.ok !== false) return
    const reason = `Telegram ${statusCode}: ${String(answer.description ?? '').slice(0, 300)}`
    if (statusCode === 429) {
      const seconds = answer.parameters?.retry_after
      throw new DeliveryError(reason, { retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : undefined })
    }
    throw new DeliveryError(reason, { permanent: statusCode >= 400 && statusCode < 500 })
  }

  return {
    name: 'telegram',
    async send(lead) {
      const text = config.fullText ? messageTelegramHtml(lead, ctx) : messageTelegramPlainHtml(lead, ctx)
      for (const chatId of config.chatIds) await sendTo(chatId, text)
    },
    async close() {},
  }
}
