// «Содержимое»'s search box (issue 27, docs/decisions/030-search.md): records by title, артикул in
// any form («эи1003» finds «ЭИ-1003») or URL, asked 250 ms after the owner stops typing; a result
// opens the record's editor.
import { useEffect, useId, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { FoundRecord } from '../../../src/admin/admin-api'
import { useAdminApi } from '../layout/admin-context'
import { TYPE_LABELS } from './editor/record-draft'
import { ADMIN_PATHS } from '../../../src/site/paths'

const DEBOUNCE_MS = 250
const MAX_CHARS = 200

export function ContentSearch() {
  const api = useAdminApi()
  const id = useId()
  const [q, setQ] = useState('')
  const [found, setFound] = useState<{ q: string; records: FoundRecord[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A blank box shows nothing, whatever an earlier query found.
  const shown = q.trim() === '' ? null : found

  useEffect(() => {
    const query = q.trim()
    if (query === '') return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      api.searchRecords(query, controller.signal).then(
        (records) => {
          setFound({ q: query, records })
          setError(null)
        },
        (failure: unknown) => {
          if (!controller.signal.aborted) setError(failure instanceof ApiError ? failure.message : 'Поиск не удался')
        },
      )
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [api, q])

  return (
    <div className="content-search" role="search">
      <label htmlFor={id}>Найти запись: название, адрес или артикул</label>
      <input
        id={id}
        type="search"
        value={q}
        maxLength={MAX_CHARS}
        autoComplete="off"
        aria-describedby={`${id}-status`}
        onChange={(event) => setQ(event.target.value)}
      />
      <p id={`${id}-status`} className="content-search__status" role="status">
        {error ??
          (found &&
            (found.records.length === 0
              ? `Ничего не найдено по запросу «${found.q}»`
              : `Найдено: ${found.records.length}`))}
      </p>
      {shown && shown.records.length > 0 && (
        <ul className="content-search__results">
          {shown.records.map((r) => (
            <li key={r.id}>
              <a href={ADMIN_PATHS.record(r.id)}>{r.title}</a>
              <span className="tree__type">{TYPE_LABELS[r.typeId as keyof typeof TYPE_LABELS] ?? r.typeId}</span>
              <span className="tree__url">{r.urlFull}</span>
              {!r.published && <span className="admin-badge admin-badge--warn">Черновик</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
