import { useContext } from 'react'
import type { MouseEvent } from 'react'
import { openLeadDialog, preloadLeadForm } from './LeadDialog'
import { LEAD_FORM_PATH } from './lead-form-state'
import { LeadSettingsContext } from './lead-settings'
import { LEAD_BUTTON_LABEL } from '../ui/labels'
import { useModal } from '../components/modal/modal-context'

/**
 * «Оставить заявку»: a link to the plain form page, so it works before hydration and without
 * JavaScript; once hydrated, a plain click opens the lead dialog instead.
 */
export function LeadButton({ className }: { className?: string }) {
  const modal = useModal()
  const settings = useContext(LeadSettingsContext)

  function open(event: MouseEvent<HTMLAnchorElement>) {
    if (!modal || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    // Vike's link interception listens on document: a dialog is not a page change.
    event.stopPropagation()
    openLeadDialog(modal, settings, event.currentTarget)
  }

  return (
    <a
      href={LEAD_FORM_PATH}
      className={`button button--accent ${className ?? ''}`}
      data-lead-button
      aria-haspopup="dialog"
      onClick={open}
      onPointerEnter={preloadLeadForm}
      onFocus={preloadLeadForm}
      onTouchStart={preloadLeadForm}
    >
      {LEAD_BUTTON_LABEL}
    </a>
  )
}
