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
import { ADMIN_PATHS } from '../../../src/site/paths'

/** A path of this site: a visitor's `//other.site` or `/\\other.site` is shown, never linked. */
const sitePath = (url: string) => /^\/(?![/\\])/.test(url)

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

  const utm = Object.entries(lead.source.utm ?? {})
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
      {(lead.source.productTitle || lead.source.url) && (
        <dl className="lead-card__asked">
          {lead.source.productTitle && (
            <div>
              <dt>Товар</dt>
              <dd>
                {lead.source.productId !== null ? (
                  <a href={ADMIN_PATHS.record(lead.source.productId)}>{lead.source.productTitle}</a>
                ) : (
                  lead.source.productTitle
                )}
              </dd>
            </div>
          )}
          {lead.source.url && (
            <div>
              <dt>Страница</dt>
              <dd className="lead-card__url">
                {sitePath(lead.source.url) ? (
                  <a href={lead.source.url} target="_blank" rel="noopener noreferrer">
                    {lead.source.url}
                  </a>
                ) : (
                  lead.source.url
                )}
              </dd>
            </div>
          )}
        </dl>
      )}
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
        <dl className="lead-card__facts">
          <dt>Метки (UTM)</dt>
          <dd>{utm.length > 0 ? utm.map(([key, value]) => `${key}=${value}`).join(', ') : 'нет'}</dd>
          <dt>Согласие</dt>
          <dd>
            {lead.consent
              ? [
                  lead.consent.at && formatDateTimeIn(lead.consent.at, timeZone),
                  lead.consent.ip && `IP ${lead.consent.ip}`,
                  lead.consent.version && `версия текста ${lead.consent.version}`,
                ]
                  .filter(Boolean)
                  .join(', ')
              : 'не записано'}
            {lead.consent?.userAgent && <span className="lead-card__ua">{lead.consent.userAgent}</span>}
          </dd>
          <dt>1С</dt>
          <dd>
            {lead.exportedTo1cAt
              ? `заказ принят ${formatDateTimeIn(lead.exportedTo1cAt, timeZone)}`
              : lead.spam
                ? 'спам в 1С не передаётся'
                : 'ещё не забран'}
            {lead.oneC && (
              <strong className="lead-card__one-c">
                {' '}
                · 1С: {lead.oneC.status}
                {lead.oneC.at && <> ({formatDateTimeIn(lead.oneC.at, timeZone)})</>}
              </strong>
            )}
          </dd>
        </dl>
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
