import './leads.css'
import { useId, useMemo, useState, type FormEvent } from 'react'
import { LEADS_CSV_URL } from '../../../src/admin/admin-api'
import { LEAD_TAB_TITLES, LEAD_TABS, type LeadTab } from '../../../src/admin/admin-leads'
import { useAdminApi } from '../layout/admin-context'
import { DeadLetters } from './DeadLetters'
import { LeadCard } from './LeadCard'
import { useLeads } from './use-leads'
import { AdminError } from '../layout/AdminError'

const PAGE_SIZE = 20

/** «№ N» when the address names a lead (`?lead=N`), else '' */
function leadFromAddress(): string {
  const lead = new URLSearchParams(window.location.search).get('lead')
  return lead !== null && /^\d{1,9}$/.test(lead) ? `№ ${lead}` : ''
}

/** A tab's count as the server gives it: counting stops at 1,000 («1000+»). */
function countText(count: number, over: boolean): string {
  return over ? `${count}+` : String(count)
}

/** The leads inbox: tabs by status with counts, search, pages of lead cards, the CSV file. */
export function LeadsInbox() {
  const api = useAdminApi()
  const id = useId()
  const [tab, setTab] = useState<LeadTab>('new')
  // `/admin?lead=N` (the link in the Telegram message) opens the inbox at that lead.
  const [draft, setDraft] = useState(leadFromAddress)
  const [q, setQ] = useState(leadFromAddress)
  // Keyset paging (decision 028): the `after` of every page before this one, so «Назад» goes back.
  const [trail, setTrail] = useState<readonly string[]>([])
  const [message, setMessage] = useState('')
  const query = useMemo(() => ({ tab, q, after: trail.at(-1), pageSize: PAGE_SIZE }), [tab, q, trail])
  const { page, loading, error, notice, reload } = useLeads(api, query)
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1
  const pageNumber = trail.length + 1

  function search(event: FormEvent) {
    event.preventDefault()
    setQ(draft.trim())
    setTrail([])
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="admin-title-row">
        <h1 id={`${id}-title`}>Заявки</h1>
        <a className="button button--quiet" href={LEADS_CSV_URL} download>
          Скачать CSV
        </a>
      </div>
      <DeadLetters />
      <div className="leads-tabs" role="group" aria-label="Статус заявок">
        {LEAD_TABS.map((item) => (
          <button
            key={item}
            type="button"
            className="leads-tab"
            aria-pressed={tab === item}
            onClick={() => {
              setTab(item)
              setTrail([])
            }}
          >
            {LEAD_TAB_TITLES[item]}{' '}
            <span className="leads-tab__count">{page ? countText(page.counts[item], page.countsOver[item]) : '…'}</span>
          </button>
        ))}
      </div>
      <form className="leads-search" role="search" onSubmit={search}>
        <label htmlFor={`${id}-q`}>Поиск по имени, телефону или e-mail</label>
        <div className="leads-search__row">
          <input
            id={`${id}-q`}
            className="field__control"
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button">
            Найти
          </button>
        </div>
      </form>
      <p className="visually-hidden" aria-live="polite">
        {[notice, message].filter(Boolean).join('. ')}
      </p>
      <AdminError message={error} />
      {page && page.data.length === 0 && !loading && (
        <p className="leads-empty">{q ? 'Ничего не найдено.' : 'Здесь пока нет заявок.'}</p>
      )}
      <div className="leads-list" aria-busy={loading}>
        {page?.data.map((lead) => (
          <LeadCard
            key={lead.id}
            lead={lead}
            onChanged={(text) => {
              setMessage(text)
              reload()
            }}
          />
        ))}
      </div>
      {page && (pageNumber > 1 || page.next) && (
        <nav className="leads-pages" aria-label="Страницы заявок">
          <button
            type="button"
            className="button button--quiet button--small"
            disabled={pageNumber <= 1}
            onClick={() => setTrail((list) => list.slice(0, -1))}
          >
            Назад
          </button>
          <span>
            Страница {pageNumber} из {Math.max(pages, pageNumber)}
            {page.countsOver[tab] ? '+' : ''}
          </span>
          <button
            type="button"
            className="button button--quiet button--small"
            disabled={!page.next}
            onClick={() => {
              const after = page.next?.after
              if (after) setTrail((list) => [...list, after])
            }}
          >
            Вперёд
          </button>
        </nav>
      )}
    </section>
  )
}
