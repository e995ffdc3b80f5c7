import { formatDateTime } from '../../../src/format/format-date'
import type { LeadDelivery, LeadStatus, LeadTab } from '../../../src/admin/admin-api'

export const TABS: ReadonlyArray<{ tab: LeadTab; label: string }> = [
  { tab: 'new', label: 'Новые' },
  { tab: 'in_progress', label: 'В работе' },
  { tab: 'closed', label: 'Закрытые' },
  { tab: 'spam', label: 'Спам' },
]

export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
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
export function deliveryText(delivery: LeadDelivery): string {
  if (delivery.status === 'sent') return `Отправлено ${formatDateTime(delivery.sentAt ?? '')}`.trim()
  if (delivery.status === 'pending') {
    const next = delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : ''
    return next ? `Ожидает отправки, следующая попытка ${next}` : 'Ожидает отправки'
  }
  return `Не доставлено: ${delivery.lastError ?? 'ошибка не записана'}`
}
