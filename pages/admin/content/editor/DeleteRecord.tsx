import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { navigate } from 'vike/client/router'
import { ApiError } from '../../../../src/api/http-client'
import { useAdminApi } from '../../layout/admin-context'
import type { RecordDraft } from './record-draft'
import { AdminError } from '../../layout/AdminError'
import { ADMIN_PATHS } from '../../../../src/site/paths'

/**
 * «Удалить» with an in-page confirmation (not window.confirm: it can be read, styled and tested like
 * the rest of the page). Focus moves to «Отмена»; Escape or «Отмена» puts it back on «Удалить».
 * The API refuses a record with children or the home page; its Russian message stays next to the button.
 */
export function DeleteRecord({ draft }: { draft: RecordDraft }) {
  const api = useAdminApi()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const openerRef = useRef<HTMLButtonElement>(null)
  const wasAsking = useRef(false)

  useEffect(() => {
    // The safe answer takes focus; the group's label (the question) is read as focus enters it.
    if (asking) cancelRef.current?.focus()
    else if (wasAsking.current) openerRef.current?.focus()
    wasAsking.current = asking
  }, [asking])

  function cancelOnEscape(event: KeyboardEvent) {
    if (event.key === 'Escape') setAsking(false)
  }

  async function remove() {
    setBusy(true)
    setError(null)
    try {
      await api.models.remove('structure', draft.id!)
      await navigate(ADMIN_PATHS.content)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось удалить запись')
      setAsking(false)
      setBusy(false)
    }
  }

  return (
    <div className="record-delete">
      {asking ? (
        <div className="record-delete__confirm" role="group" aria-labelledby="record-delete-question">
          <p id="record-delete-question">
            Удалить запись «{draft.title}»? Её адрес будет отвечать «страница удалена» (410).
          </p>
          <div className="admin-toolbar">
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onKeyDown={cancelOnEscape}
              onClick={() => void remove()}
            >
              {busy ? 'Удаляем…' : 'Да, удалить'}
            </button>
            <button
              ref={cancelRef}
              type="button"
              className="button button--quiet"
              disabled={busy}
              onKeyDown={cancelOnEscape}
              onClick={() => setAsking(false)}
            >
              Отмена
            </button>
          </div>
        </div>
      ) : (
        <button
          ref={openerRef}
          type="button"
          className="button button--danger"
          onClick={() => {
            setError(null)
            setAsking(true)
          }}
        >
          Удалить
        </button>
      )}
      <AdminError message={error} />
    </div>
  )
}
