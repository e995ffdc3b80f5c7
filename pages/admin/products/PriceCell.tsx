// A price of «Товары» edited in place. Enter, Tab and leaving the cell save; Escape cancels; a
// Russian error stays in the cell with the draft and nothing is half-saved. A saved value says
// «Сохранено» for a moment (a status, so a screen reader hears it too). A price 1C will overwrite
// (`warning`, decision 044) is saved after the owner's yes, asked once per save.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { editableRubles, formatRubles, parseMoney, rublesNumber } from '../../../src/format/money'
import { Confirm } from '../layout/Confirm'

/** How long «Сохранено» stays, in milliseconds */
const SAVED_SHOWN_MS = 2500

/** A flag that turns itself off: `flash()` shows «Сохранено» for a moment. */
export function useSavedFlash(): [boolean, () => void] {
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (!saved) return
    const timer = setTimeout(() => setSaved(false), SAVED_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [saved])
  return [saved, () => setSaved(true)]
}

export function SavedNote({ saved }: { saved: boolean }) {
  return (
    <small className="products__saved" role="status">
      {saved ? 'Сохранено' : ''}
    </small>
  )
}

export function PriceCell({
  label,
  value,
  onSave,
  warning = null,
}: {
  label: string
  value: number | null
  onSave: (value: number | null) => Promise<void>
  /** Asked before a save: the price is one 1C overwrites at its next exchange */
  warning?: string | null
}) {
  const [draft, setDraft] = useState<string | null>(null)
  /** A value waiting for the owner's yes to `warning` */
  const [asking, setAsking] = useState<{ value: number | null } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [saved, flash] = useSavedFlash()
  const button = useRef<HTMLButtonElement>(null)
  // Set by Escape, a save under way or done: the blur that follows (Chrome blurs an input it
  // removes) must not save again. Opening the cell clears it.
  const settled = useRef(false)
  const refocus = useRef(false)

  useEffect(() => {
    if (draft === null && refocus.current) {
      refocus.current = false
      button.current?.focus()
    }
  }, [draft])

  const original = value === null ? '' : editableRubles(value)

  async function save(then: 'stay' | 'leave') {
    if (draft === null || settled.current) return
    if (draft.trim() === original) {
      settled.current = true
      refocus.current = then === 'stay'
      setDraft(null)
      setError(null)
      return
    }
    const read = draft.trim() === '' ? null : parseMoney(draft)
    if (read && !read.ok) {
      setError(`Введите сумму в рублях (${read.reason}) или оставьте пустым`)
      return
    }
    settled.current = true
    const rubles = read === null ? null : rublesNumber(read.kopecks)
    if (warning) setAsking({ value: rubles })
    else await commit(rubles, then)
  }

  async function commit(rubles: number | null, then: 'stay' | 'leave') {
    setAsking(null)
    setBusy(true)
    try {
      await onSave(rubles)
      refocus.current = then === 'stay'
      setDraft(null)
      setError(null)
      flash()
    } catch (failure) {
      settled.current = false
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить. Попробуйте ещё раз.')
    } finally {
      setBusy(false)
    }
  }

  function keys(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault()
      void save('stay')
    }
    // Tab moves on as usual; leaving the cell saves (onBlur).
    if (event.key === 'Escape') {
      event.preventDefault()
      settled.current = true
      refocus.current = true
      setDraft(null)
      setError(null)
    }
  }

  if (draft === null) {
    return (
      <span className="products__editing">
        <button
          ref={button}
          type="button"
          className="products__edit"
          aria-label={`${label}: изменить`}
          onClick={() => {
            settled.current = false
            setDraft(original)
          }}
        >
          {value === null ? '—' : formatRubles(value)}
        </button>
        <SavedNote saved={saved} />
      </span>
    )
  }
  return (
    <span className="products__editing">
      <input
        className="field__control products__input"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-busy={busy || undefined}
        value={draft}
        readOnly={busy || asking !== null}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the owner asked to edit this cell
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={keys}
        onBlur={() => void save('leave')}
      />
      {error && (
        <small className="admin-error" role="alert">
          {error}
        </small>
      )}
      {asking && warning && (
        <Confirm
          className="products__confirm products__confirm--cell"
          question={warning}
          confirmLabel="Сохранить"
          busy={busy}
          onConfirm={() => void commit(asking.value, 'stay')}
          onCancel={() => {
            setAsking(null)
            refocus.current = true
            setDraft(null)
          }}
        />
      )}
    </span>
  )
}
