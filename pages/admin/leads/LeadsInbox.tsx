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

/** The leads inbox: tabs by status with counts, search, pages of lead cards, the CSV file. */
export function LeadsInbox() {
  const api = useAdminApi()
  const id = useId()
  const [tab, setTab] = useState<LeadTab>('new')
  const [draft, setDraft] = useState('')
  const [q, setQ] = useState('')
  const [pageNumber, setPageNumber] = useState(1)
  const [message, setMessage] = useState('')
  const query = useMemo(() => ({ tab, q, page: pageNumber, pageSize: PAGE_SIZE }), [tab, q, pageNumber])
  const { page, loading, error, notice, reload } = useLeads(api, query)
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1

  function search(event: FormEvent) {
    event.preventDefault()
    setQ(draft.trim())
    setPageNumber(1)
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
              setPageNumber(1)
            }}
          >
            {LEAD_TAB_TITLES[item]} <span className="leads-tab__count">{page?.counts[item] ?? '…'}</span>
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
      {page && pages > 1 && (
        <nav className="leads-pages" aria-label="Страницы заявок">
          <button
            type="button"
            className="button button--quiet button--small"
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((n) => n - 1)}
          >
            Назад
          </button>
          <span>
            Страница {page.page} из {pages}
          </span>
          <button
            type="button"
            className="button button--quiet button--small"
            disabled={pageNumber >= pages}
            onClick={() => setPageNumber((n) => n + 1)}
          >
            Вперёд
          </button>
        </nav>
      )}
    </section>
  )
}
