import { useState } from 'react'
import { ApiError } from '../../../../src/api/http-client'
import { useAdminApi } from '../../layout/admin-context'
import type { RecordDraft } from './record-draft'

interface RecordActionsProps {
  draft: RecordDraft
  onChanged: (saved: Record<string, unknown>, message: string) => void
}

/**
 * What the owner does to a record as a whole: publish or withdraw it, delete it (its URL answers
 * 410 from then on; the record stays in the tree and can be restored), add a child record.
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

  const deleted = draft.status === 410
  return (
    <section className="record-actions admin-panel" aria-labelledby="record-actions-title">
      <h2 id="record-actions-title">Действия с записью</h2>
      <div className="admin-toolbar">
        <a className="button button--quiet" href={`/admin/content/new?parentId=${id}`}>
          Добавить вложенную запись
        </a>
        {draft.published ? (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void write({ published: false }, 'Запись снята с публикации')}
          >
            Снять с публикации
          </button>
        ) : (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void write({ published: true }, 'Запись опубликована')}
          >
            Опубликовать
          </button>
        )}
        {deleted ? (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void write({ status: null }, 'Запись восстановлена')}
          >
            Восстановить
          </button>
        ) : (
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => {
              if (
                window.confirm(
                  `Удалить «${draft.title}»? Адрес ${draft.urlFull} будет отвечать «страница удалена» (410).`,
                )
              )
                void write({ status: 410 }, 'Запись удалена: её адрес отвечает 410')
            }}
          >
            Удалить
          </button>
        )}
      </div>
      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
