import { useContext, useSyncExternalStore } from 'react'
import type { MouseEvent } from 'react'
import { openLeadDialog, preloadLeadForm, type LeadProduct } from './LeadDialog'
import { LEAD_FORM_PATH } from './lead-form-state'
import { LeadSettingsContext } from './lead-settings'
import { LEAD_BUTTON_LABEL } from '../ui/labels'
import { useModal } from '../components/modal/modal-context'

const subscribeNever = () => () => {}

/** False in the server's HTML and during hydration, true once React runs the page. */
function useInteractive(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  )
}

/**
 * «Оставить заявку»: in the server's HTML a link to the plain form page, so it works before
 * hydration and without JavaScript; once the page is interactive, a button that opens the lead
 * dialog, which is what assistive technology then announces. On a product page it names the
 * product, which the lead then asks for as one line of quantity 1.
 */
export function LeadButton({ product }: { product?: LeadProduct }) {
  const modal = useModal()
  const settings = useContext(LeadSettingsContext)
  const interactive = useInteractive() && modal !== null
  const shared = {
    // Placed by its container's CSS (`.header [data-lead-button]`): no props to send with the island.
    className: 'button button--accent',
    'data-lead-button': true,
    'aria-haspopup': 'dialog' as const,
    onPointerEnter: preloadLeadForm,
    onFocus: preloadLeadForm,
    onTouchStart: preloadLeadForm,
  }

  if (interactive) {
    return (
      <button
        type="button"
        {...shared}
        onClick={(event: MouseEvent<HTMLButtonElement>) =>
          openLeadDialog(modal, settings, event.currentTarget, product)
        }
      >
        {LEAD_BUTTON_LABEL}
      </button>
    )
  }
  return (
    <a href={product ? `${LEAD_FORM_PATH}?tovar=${product.id}` : LEAD_FORM_PATH} {...shared}>
      {LEAD_BUTTON_LABEL}
    </a>
  )
}
