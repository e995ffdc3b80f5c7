import { useEffect, useRef, useState } from 'react'
import { navigate } from 'vike/client/router'
import { ApiError } from '../../../../src/api/http-client'
import { useAdminApi } from '../../layout/admin-context'
import type { RecordDraft } from './record-draft'
import { AdminError } from '../../layout/AdminError'
import { Confirm } from '../../layout/Confirm'
import { ADMIN_PATHS } from '../../../../src/site/paths'

/**
 * «Удалить» with an in-page confirmation. Focus moves to «Отмена»; Escape or «Отмена» puts it back
 * on «Удалить».
 * The API refuses a record with children or the home page; its Russian message stays next to the button.
 */
export function DeleteRecord({ draft }: { draft: RecordDraft }) {
  const api = useAdminApi()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const openerRef = useRef<HTMLButtonElement>(null)
  const wasAsking = useRef(false)

  useEffect(() => {
    // The question takes focus itself (Confirm); once answered, focus goes back to «Удалить».
    if (!asking && wasAsking.current) openerRef.current?.focus()
    wasAsking.current = asking
  }, [asking])

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
        <Confirm
          className="record-delete__confirm"
          question={`Удалить запись «${draft.title}»? Её адрес будет отвечать «страница удалена» (410).`}
          confirmLabel="Да, удалить"
          busyLabel="Удаляем…"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        />
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
