// The manager's note on a lead: free text kept with it (PATCH /api/admin/leads/{id} { note }),
// shown on the card and in the CSV, never sent to a delivery channel. Saved with its button; the
// card says «Заметка сохранена» once the server has it.
import { useId, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { LEAD_NOTE_MAX, type AdminLead } from '../../../src/admin/admin-leads'
import { useAdminApi } from '../layout/admin-context'

export function LeadNote({ lead, onSaved }: { lead: AdminLead; onSaved: (message: string) => void }) {
  const api = useAdminApi()
  const id = useId()
  const [draft, setDraft] = useState(lead.note ?? '')
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')
  const [error, setError] = useState<string | null>(null)
  const changed = draft.trim() !== (lead.note ?? '')

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const saved = await api.updateLead(lead.id, { note: draft.trim() === '' ? null : draft })
      setDraft(saved.note ?? '')
      setStatus(saved.note === null ? 'Заметка удалена' : 'Заметка сохранена')
      onSaved(`Заметка к заявке № ${lead.id} сохранена`)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить заметку')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="lead-note" onSubmit={(event) => void save(event)}>
      <label className="lead-note__label" htmlFor={`${id}-note`}>
        Заметка менеджера
      </label>
      <textarea
        id={`${id}-note`}
        className="field__control field__control--multiline lead-note__text"
        rows={2}
        maxLength={LEAD_NOTE_MAX}
        value={draft}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          setDraft(event.target.value)
          setStatus('')
        }}
      />
      <div className="lead-note__row">
        <button type="submit" className="button button--small" disabled={busy || !changed}>
          Сохранить заметку
        </button>
        <span className="lead-note__status" role="status">
          {status}
        </span>
      </div>
      {error && (
        <p className="admin-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
