import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { ACTION_LABELS } from '../../ui/labels'
import { initialFocus, tabbables } from './focus'
import { MODAL_FADE_MS, ModalContext } from './modal-context'
import type { DialogOptions, ModalApi } from './modal-context'
import './modal.css'

type Phase = 'entering' | 'open' | 'closing'

type Entry = DialogOptions & { id: number; phase: Phase }

/**
 * The dialog stack and its host, in a React root of its own beside the page (src/islands/):
 * `page` goes inert while a dialog is open, the body stops scrolling, Escape and a backdrop click
 * close the top dialog, Tab stays in the top dialog, and focus returns to the opener. A closing
 * dialog stays mounted for the fade.
 */
export function ModalProvider({ page, children }: { page: HTMLElement | null; children?: ReactNode }) {
  const [stack, setStack] = useState<Entry[]>([])
  const stackRef = useRef(stack)
  useLayoutEffect(() => {
    stackRef.current = stack
  })
  const nextId = useRef(1)
  const returnFocus = useRef<HTMLElement | null>(null)

  const close = useCallback((id: number) => {
    const entry = stackRef.current.find((e) => e.id === id)
    if (!entry || entry.phase === 'closing') return
    returnFocus.current = entry.opener ?? null
    setStack((s) => s.map((e) => (e.id === id ? { ...e, phase: 'closing' } : e)))
    setTimeout(() => setStack((s) => s.filter((e) => e.id !== id)), MODAL_FADE_MS)
  }, [])

  const api = useMemo<ModalApi>(
    () => ({
      open(options) {
        const id = nextId.current++
        const opener = options.opener ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null)
        setStack((s) => [...s, { ...options, opener, id, phase: 'entering' }])
        return id
      },
      close,
      closeTop() {
        const top = stackRef.current.findLast((e) => e.phase !== 'closing')
        if (top) close(top.id)
      },
    }),
    [close],
  )

  const active = stack.filter((e) => e.phase !== 'closing')
  const top = active.at(-1)
  const anyOpen = active.length > 0

  // Nothing behind the dialogs can be focused, clicked or read by assistive technology. A layout
  // effect declared before the focus return below: the page is no longer inert when focus goes back.
  useLayoutEffect(() => {
    if (!page || !anyOpen) return
    page.setAttribute('inert', '')
    return () => page.removeAttribute('inert')
  }, [page, anyOpen])

  // Focus goes back to the opener once the layers above it are no longer inert.
  useLayoutEffect(() => {
    const target = returnFocus.current
    if (!target) return
    returnFocus.current = null
    if (target.isConnected) target.focus()
    else if (top) document.getElementById(dialogDomId(top.id))?.focus()
  }, [stack, top])

  // Fade in: the first frame draws the dialog transparent, the next one starts the transition.
  useEffect(() => {
    if (!stack.some((e) => e.phase === 'entering')) return
    const frame = requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        setStack((s) => s.map((e) => (e.phase === 'entering' ? { ...e, phase: 'open' } : e)))
      }),
    )
    return () => cancelAnimationFrame(frame)
  }, [stack])

  // The page behind does not scroll; the scrollbar's width is kept so nothing jumps.
  useEffect(() => {
    if (!anyOpen) return
    const { body, documentElement } = document
    const scrollbar = window.innerWidth - documentElement.clientWidth
    const previous = { overflow: body.style.overflow, paddingRight: body.style.paddingRight }
    body.style.overflow = 'hidden'
    if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`
    return () => {
      body.style.overflow = previous.overflow
      body.style.paddingRight = previous.paddingRight
    }
  }, [anyOpen])

  // Escape closes the top dialog; Tab cycles inside it; focus that escapes is brought back.
  useEffect(() => {
    if (!top) return
    const dialog = () => document.getElementById(dialogDomId(top.id))
    const onKeyDown = (event: KeyboardEvent) => {
      const element = dialog()
      if (!element) return
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault()
        close(top.id)
        return
      }
      if (event.key !== 'Tab') return
      const items = tabbables(element)
      if (items.length === 0) {
        event.preventDefault()
        element.focus()
        return
      }
      const first = items[0]
      const last = items[items.length - 1]
      const current = document.activeElement
      if (event.shiftKey && (current === first || current === element || !element.contains(current))) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (current === last || !element.contains(current))) {
        event.preventDefault()
        first.focus()
      }
    }
    const onFocusIn = (event: FocusEvent) => {
      const element = dialog()
      if (element && event.target instanceof Node && !element.contains(event.target)) initialFocus(element).focus()
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('focusin', onFocusIn)
    }
  }, [top, close])

  return (
    <ModalContext value={api}>
      {children}
      {stack.map((entry) => (
        <DialogLayer key={entry.id} entry={entry} isTop={entry === top} onClose={close} />
      ))}
    </ModalContext>
  )
}

function dialogDomId(id: number): string {
  return `dialog-${id}`
}

function DialogLayer({ entry, isTop, onClose }: { entry: Entry; isTop: boolean; onClose: (id: number) => void }) {
  const titleId = useId()
  const [title, setTitle] = useState(entry.title)
  const dialogRef = useRef<HTMLDivElement>(null)
  const close = useCallback(() => onClose(entry.id), [onClose, entry.id])

  useLayoutEffect(() => {
    if (dialogRef.current) initialFocus(dialogRef.current).focus()
  }, [])

  return (
    <div className="modal" data-phase={entry.phase} inert={!isTop || undefined}>
      <div className="modal__backdrop" onClick={isTop ? close : undefined} aria-hidden="true" />
      <div
        ref={dialogRef}
        id={dialogDomId(entry.id)}
        className="modal__dialog modal__dialog--small"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="modal__header">
          <h2 className="modal__title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="modal__close" aria-label={ACTION_LABELS.close} onClick={close}>
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="modal__body">{entry.render({ close, setTitle, titleId })}</div>
      </div>
    </div>
  )
}
