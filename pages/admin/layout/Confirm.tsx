import { useEffect, useId, useRef, type KeyboardEvent } from 'react'

/**
 * An in-page confirmation of what cannot be undone (not window.confirm: it can be read, styled and
 * tested like the rest of the page). The group is labelled by its question; the safe answer takes
 * focus, and Escape answers it.
 */
export function Confirm({
  question,
  confirmLabel,
  busyLabel = confirmLabel,
  cancelLabel = 'Отмена',
  busy,
  className,
  onConfirm,
  onCancel,
}: {
  question: string
  confirmLabel: string
  busyLabel?: string
  cancelLabel?: string
  busy: boolean
  className: string
  onConfirm: () => void
  onCancel: () => void
}) {
  const questionId = useId()
  const cancelRef = useRef<HTMLButtonElement>(null)
  useEffect(() => cancelRef.current?.focus(), [])

  function cancelOnEscape(event: KeyboardEvent) {
    if (event.key === 'Escape') onCancel()
  }

  return (
    <div className={className} role="group" aria-labelledby={questionId}>
      <p id={questionId}>{question}</p>
      <div className="admin-toolbar">
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          onKeyDown={cancelOnEscape}
          onClick={onConfirm}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button
          ref={cancelRef}
          type="button"
          className="button button--quiet"
          disabled={busy}
          onKeyDown={cancelOnEscape}
          onClick={onCancel}
        >
          {cancelLabel}
        </button>
      </div>
    </div>
  )
}
