import { LEAD_BUTTON_LABEL } from '../ui/labels'

/** «Оставить заявку»: opens the lead dialog (the lead form issue wires it). */
export function LeadButton({ className }: { className?: string }) {
  return (
    <button type="button" className={`button button--accent ${className ?? ''}`} data-lead-button>
      {LEAD_BUTTON_LABEL}
    </button>
  )
}
