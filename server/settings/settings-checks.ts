// The checks of «Настройки», each of which sends or fetches something real with the settings in
// effect: a test e-mail, a Telegram message, a signed webhook call, the site's own robots.txt through
// its public address, the feed and the home page. Each is bounded in time (and the fetch in size),
// and answers in Russian words that name no secret.
import { randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { signedWebhookHeaders } from '../http/signed-webhook'
import type { EffectiveSettings } from './effective-settings'
import type { CheckResult, TelegramChat } from '../../src/admin/admin-settings'

/** Every check's limit: connecting, waiting and reading */
export const CHECK_TIMEOUT_MS = 8000
/** The most of robots.txt the address check reads */
const ROBOTS_MAX_BYTES = 64 * 1024

const ok = (message: string): CheckResult => ({ ok: true, message })
const failed = (message: string): CheckResult => ({ ok: false, message })
const errorWords = (error: unknown) => String((error as { code?: string }).code ?? (error as Error).name ?? 'ошибка')

export async function checkEmail(settings: EffectiveSettings): Promise<CheckResult> {
  const email = settings.delivery.email
  if (!email) return failed('Отправка на e-mail не настроена: заполните сервер, отправителя и получателей')
  const { createTransport } = await import('nodemailer')
  const smtp = createTransport({
    url: email.smtpUrl,
    connectionTimeout: CHECK_TIMEOUT_MS,
    greetingTimeout: CHECK_TIMEOUT_MS,
    socketTimeout: CHECK_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  try {
    await smtp.sendMail({
      from: email.from,
      to: [...email.to],
      subject: 'Проверка: письма о заявках с сайта',
      text: `Это тестовое письмо из «Настроек» сайта ${settings.publicUrl}. Заявки будут приходить сюда.`,
    })
    return ok(`Письмо отправлено: ${email.to.join(', ')}`)
  } catch (error) {
    const { responseCode, message } = error as { responseCode?: number; message?: string }
    // The server's own words name no password; the URL with it is never part of them.
    const words = (message ?? errorWords(error)).replace(email.smtpUrl, '').slice(0, 300)
    return failed(`Письмо не отправлено${responseCode ? ` (SMTP ${responseCode})` : ''}: ${words}`)
  } finally {
    smtp.close()
  }
}

interface BotAnswer {
  ok?: boolean
  description?: string
  result?: unknown
}

async function botCall(settings: EffectiveSettings, token: string, method: string, body: unknown) {
  const { request } = await import('undici')
  // The token is part of the path: this URL is never logged or returned.
  const response = await request(`${settings.delivery.telegramApi.apiUrl}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: CHECK_TIMEOUT_MS,
    bodyTimeout: CHECK_TIMEOUT_MS,
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  })
  const answer = (await response.body.json().catch(() => ({}))) as BotAnswer
  return { status: response.statusCode, answer }
}

export async function checkTelegram(settings: EffectiveSettings): Promise<CheckResult> {
  const telegram = settings.delivery.telegram
  if (!telegram) return failed('Telegram не настроен: укажите токен бота и чат')
  const host = new URL(settings.publicUrl).host
  for (const chatId of telegram.chatIds) {
    try {
      const { status, answer } = await botCall(settings, telegram.botToken, 'sendMessage', {
        chat_id: chatId,
        text: `Проверка: заявки с сайта ${host} будут приходить в этот чат.`,
      })
      if (status < 200 || status >= 300 || answer.ok === false)
        return failed(
          `Telegram ответил ${status} для чата ${chatId}: ${String(answer.description ?? '').slice(0, 200)}`,
        )
    } catch (error) {
      return failed(`Telegram недоступен: ${errorWords(error)}`)
    }
  }
  return ok(`Сообщение отправлено: ${telegram.chatIds.join(', ')}`)
}

interface Update {
  [kind: string]: { chat?: { id?: number; title?: string; first_name?: string; last_name?: string; username?: string } }
}

/** The chats that wrote to the bot lately (or added it), from getUpdates: what the chat field takes. */
export async function telegramChats(
  settings: EffectiveSettings,
  token: string | null,
): Promise<TelegramChat[] | CheckResult> {
  if (!token) return failed('Сначала сохраните токен бота')
  try {
    const { status, answer } = await botCall(settings, token, 'getUpdates', { limit: 100, timeout: 0 })
    if (status < 200 || status >= 300 || !Array.isArray(answer.result))
      return failed(`Telegram ответил ${status}: ${String(answer.description ?? '').slice(0, 200)}`)
    const chats = new Map<string, TelegramChat>()
    for (const update of answer.result as Update[]) {
      for (const part of Object.values(update)) {
        const chat = typeof part === 'object' && part !== null ? part.chat : undefined
        if (chat?.id === undefined) continue
        const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || chat.username || '')
        chats.set(String(chat.id), { id: String(chat.id), title: name.slice(0, 200) })
      }
    }
    return [...chats.values()]
  } catch (error) {
    return failed(`Telegram недоступен: ${errorWords(error)}`)
  }
}

export async function checkWebhook(settings: EffectiveSettings): Promise<CheckResult> {
  const webhook = settings.delivery.webhook
  if (!webhook) return failed('Вебхук не настроен: укажите адрес и создайте секрет')
  const at = new Date()
  const id = `test-${randomUUID()}`
  const body = JSON.stringify({
    type: 'settings.test',
    timestamp: at.toISOString(),
    data: { site: settings.publicUrl },
  })
  try {
    const { request } = await import('undici')
    const response = await request(webhook.url, {
      method: 'POST',
      headers: signedWebhookHeaders(new Webhook(webhook.secret), id, at, body),
      body,
      headersTimeout: CHECK_TIMEOUT_MS,
      bodyTimeout: CHECK_TIMEOUT_MS,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
    await response.body.dump()
    if (response.statusCode >= 200 && response.statusCode < 300)
      return ok(`Подписанный тестовый вызов принят: ответ ${response.statusCode}`)
    return failed(`Адрес вебхука ответил ${response.statusCode}`)
  } catch (error) {
    return failed(`Адрес вебхука недоступен: ${errorWords(error)}`)
  }
}

/**
 * Fetches robots.txt through the public address and compares it with this site's own: the owner's
 * own address, asked for by the owner, once, within CHECK_TIMEOUT_MS and ROBOTS_MAX_BYTES, no
 * redirect followed, and nothing of the answer returned but a verdict.
 */
export async function checkPublicUrl(settings: EffectiveSettings, ownRobots: string): Promise<CheckResult> {
  if (!settings.publicUrlSet) return failed('Адрес сайта не задан')
  const url = `${settings.publicUrl}/robots.txt`
  try {
    const { request } = await import('undici')
    const response = await request(url, {
      method: 'GET',
      headersTimeout: CHECK_TIMEOUT_MS,
      bodyTimeout: CHECK_TIMEOUT_MS,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
    if (response.statusCode !== 200) {
      await response.body.dump()
      const where = response.headers.location
        ? `, перенаправляет на ${String(response.headers.location).slice(0, 200)}`
        : ''
      return failed(`${url} ответил ${response.statusCode}${where}`)
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length
      if (size > ROBOTS_MAX_BYTES) {
        response.body.destroy()
        return failed(`${url} отвечает, но это не robots.txt этого сайта (слишком большой)`)
      }
      chunks.push(chunk as Buffer)
    }
    if (Buffer.concat(chunks).toString('utf8') !== ownRobots)
      return failed(`${url} отвечает, но robots.txt не этого сайта: адрес ведёт на другой сервер`)
    return ok(`Сайт отвечает по адресу ${settings.publicUrl}`)
  } catch (error) {
    return failed(`${url} недоступен: ${errorWords(error)}`)
  }
}
