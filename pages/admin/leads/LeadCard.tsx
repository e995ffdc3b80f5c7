import { useId, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { AdminLead as Lead, AdminLeadStatus as LeadStatus } from '../../../src/admin/admin-leads'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { telLink } from '../../../src/format/phone'
import { useAdminApi, useTimeZone } from '../layout/admin-context'
import { channelLabel, deliveryText, STATUS_LABELS } from './lead-texts'
import { AdminError } from '../layout/AdminError'
import { LeadLines } from './LeadLines'
import { LeadNote } from './LeadNote'
import { LeadAsked, LeadFacts } from './lead-card-parts'

/**
 * One lead: who, when, what was asked for (the product and the page, as links, without a click),
 * its status and the manager's note; the details (tags, consent, deliveries) fold out.
 */
export function LeadCard({ lead, onChanged }: { lead: Lead; onChanged: (message: string) => void }) {
  const api = useAdminApi()
  const timeZone = useTimeZone()
  const id = useId()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function act(action: () => Promise<unknown>, done: string) {
    setBusy(true)
    setError(null)
    try {
      await action()
      onChanged(done)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить')
    } finally {
      setBusy(false)
    }
  }

  return (
    <article className="lead-card admin-panel" aria-labelledby={`${id}-name`}>
      <header className="lead-card__head">
        <h2 className="lead-card__name" id={`${id}-name`}>
          {lead.username}
        </h2>
        <span className="lead-card__meta">
          № {lead.id} · <time dateTime={lead.createdAt}>{formatDateTimeIn(lead.createdAt, timeZone)}</time>
        </span>
        {lead.spam && <span className="admin-badge admin-badge--danger">Спам</span>}
      </header>
      <p className="lead-card__contacts">
        <a href={telLink(lead.phone)}>{lead.phone}</a>
        <a href={`mailto:${lead.email}`}>{lead.email}</a>
      </p>
      <LeadAsked lead={lead} />
      <LeadLines lead={lead} />
      <div className="lead-card__actions">
        {!lead.spam && (
          <label className="lead-card__status">
            <span>Статус</span>
            <select
              className="admin-select"
              value={lead.status}
              disabled={busy}
              onChange={(event) => {
                const status = event.target.value as LeadStatus
                void act(
                  () => api.updateLead(lead.id, { status }),
                  `Статус заявки № ${lead.id}: ${STATUS_LABELS[status]}`,
                )
              }}
            >
              {Object.entries(STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        {lead.spam && (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() =>
              void act(() => api.updateLead(lead.id, { spam: false }), `Заявка № ${lead.id} не спам: отправляем`)
            }
          >
            Не спам
          </button>
        )}
      </div>
      <AdminError message={error} />
      <LeadNote lead={lead} onSaved={onChanged} />
      <details className="lead-card__details">
        <summary>Подробности</summary>
        <LeadFacts lead={lead} timeZone={timeZone} />
        <h3 className="lead-card__subtitle">Доставка</h3>
        {lead.deliveries.length === 0 ? (
          <p>{lead.spam ? 'Спам не рассылается.' : 'Каналы доставки не настроены.'}</p>
        ) : (
          <ul className="lead-card__deliveries">
            {lead.deliveries.map((delivery) => (
              <li key={delivery.id} className={`delivery delivery--${delivery.status}`}>
                <strong>{channelLabel(delivery.channel)}</strong>: {deliveryText(delivery, timeZone)}
                {delivery.attempts > 0 && ` (попыток: ${delivery.attempts})`}
              </li>
            ))}
          </ul>
        )}
        {!lead.spam && lead.deliveries.length > 0 && (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void act(() => api.resendLead(lead.id), `Заявка № ${lead.id} поставлена в отправку`)}
          >
            Отправить ещё раз
          </button>
        )}
      </details>
    </article>
  )
}
