// Parts of an inbox card (LeadCard.tsx): what the lead asked about (the product and the page, as
// links) and the facts folded under «Подробности» (tags, consent, 1C).
import type { AdminLead as Lead } from '../../../src/admin/admin-leads'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { ADMIN_PATHS } from '../../../src/site/paths'

/** A path of this site: a visitor's `//other.site` or `/\\other.site` is shown, never linked. */
const sitePath = (url: string) => /^\/(?![/\\])/.test(url)

export function LeadAsked({ lead }: { lead: Lead }) {
  if (!lead.source.productTitle && !lead.source.url) return null
  return (
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
  )
}

export function LeadFacts({ lead, timeZone }: { lead: Lead; timeZone: string }) {
  const utm = Object.entries(lead.source.utm ?? {})
  return (
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
  )
}
