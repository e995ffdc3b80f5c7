import { useState } from 'react'
import { ApiError } from '../../../../src/api/http-client'
import { useAdminApi } from '../../layout/admin-context'
import { DeleteRecord } from './DeleteRecord'
import type { RecordDraft } from './record-draft'
import { AdminError } from '../../layout/AdminError'
import { ADMIN_PATHS } from '../../../../src/site/paths'

interface RecordActionsProps {
  draft: RecordDraft
  onChanged: (saved: Record<string, unknown>, message: string) => void
}

/**
 * What the owner does to a record as a whole. «Снять с публикации» withdraws a live page: its
 * `status` becomes 410, so its URL answers «страница удалена» to visitors and search engines, and
 * the record stays in the tree to be put back. (An unticked «Опубликовано» is a draft: its URL
 * answers 404, as for a page that never existed.) «Удалить» removes the record for good
 * (DeleteRecord): its URL answers 410 as well.
 */
export function RecordActions({ draft, onChanged }: RecordActionsProps) {
  const api = useAdminApi()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const id = draft.id!

  async function write(values: Record<string, unknown>, message: string) {
    setBusy(true)
    setError(null)
    try {
      onChanged(await api.models.patch('structure', { id, ...values }), message)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить')
    } finally {
      setBusy(false)
    }
  }

  const withdrawn = draft.status === 410
  return (
    <section className="record-actions admin-panel" aria-labelledby="record-actions-title">
      <h2 id="record-actions-title">Действия с записью</h2>
      <div className="admin-toolbar">
        <a className="button button--quiet" href={ADMIN_PATHS.newRecord({ parentId: id })}>
          Добавить вложенную запись
        </a>
        {withdrawn && (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void write({ status: null, published: true }, 'Запись снова на сайте')}
          >
            Вернуть на сайт
          </button>
        )}
        {!withdrawn && draft.published && (
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => {
              const question = `Снять «${draft.title}» с сайта? Адрес ${draft.urlFull} будет отвечать «страница удалена» (410).`
              if (window.confirm(question))
                void write({ status: 410 }, 'Запись снята с публикации: её адрес отвечает 410')
            }}
          >
            Снять с публикации
          </button>
        )}
        {!withdrawn && !draft.published && (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void write({ published: true }, 'Запись опубликована')}
          >
            Опубликовать
          </button>
        )}
      </div>
      <AdminError message={error} />
      <DeleteRecord draft={draft} />
    </section>
  )
}
