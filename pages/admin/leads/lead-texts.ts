import { formatDateTimeIn } from '../../../src/format/format-date'
import type { AdminDelivery, AdminLeadStatus } from '../../../src/admin/admin-leads'

export const STATUS_LABELS: Readonly<Record<AdminLeadStatus, string>> = {
  new: 'Новая',
  in_progress: 'В работе',
  closed: 'Закрыта',
}

const CHANNELS: Readonly<Record<string, string>> = {
  email: 'E-mail',
  telegram: 'Telegram',
  webhook: 'Вебхук',
}

export function channelLabel(channel: string): string {
  return CHANNELS[channel] ?? channel
}

/** «Отправлено 02.03.2026, 12:05», «Ожидает: следующая попытка …», «Не доставлено: <error>». */
export function deliveryText(delivery: AdminDelivery, timeZone: string): string {
  if (delivery.status === 'sent') return `Отправлено ${formatDateTimeIn(delivery.sentAt ?? '', timeZone)}`.trim()
  if (delivery.status === 'pending') {
    const next = delivery.nextAttemptAt ? formatDateTimeIn(delivery.nextAttemptAt, timeZone) : ''
    return next ? `Ожидает отправки, следующая попытка ${next}` : 'Ожидает отправки'
  }
  return `Не доставлено: ${delivery.lastError ?? 'ошибка не записана'}`
}
