// «В заявку» sent by a script (docs/decisions/041-request-list.md): the same urlencoded form the
// plain post sends, answered with JSON, then the event the header's counter listens to. Used by the
// product page's island and, through one listener of the header's island, by every card's form.
import { PATHS } from '../site/paths'
import { REQUEST_LIST_EVENT, REQUEST_LIST_TEXTS } from './request-list-view'

export type AddOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string }

/** Posts a «В заявку» form's fields; on success the list's parts on the page read the list again. */
export async function addToRequestList(form: HTMLFormElement, submitter?: HTMLElement | null): Promise<AddOutcome> {
  const fields = [...new FormData(form).entries()].map(([key, value]) => [key, String(value)])
  // A named button's value, as a plain post sends it (a card's `add=<id>`); not FormData's
  // second argument, which browsers before 2023 ignore.
  if (submitter instanceof HTMLButtonElement && submitter.name) fields.push([submitter.name, submitter.value])
  try {
    const response = await fetch(PATHS.requestList, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    })
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null
    if (!response.ok) return { ok: false, message: body?.error?.message ?? REQUEST_LIST_TEXTS.failed }
    window.dispatchEvent(new Event(REQUEST_LIST_EVENT))
    return { ok: true }
  } catch {
    return { ok: false, message: REQUEST_LIST_TEXTS.failed }
  }
}

/**
 * The name of a card's «В заявку» button, whose value is the product's id
 * (server/leads/list/list-routes.ts). No other button has it, so it also marks the card's form for
 * the header island's listener: no attribute of its own in every card.
 */
export const CARD_ADD_FIELD = 'add'

/**
 * A card's «В заявку» with JavaScript: added in place, the button saying so for a moment. A
 * refusal (a product gone since the page was made) falls back to the plain post, whose answer is
 * the list page with the reason.
 */
export function listenToCardForms(): () => void {
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target
    const button = event.submitter
    // A browser without `submitter` (Safari before 15.4) posts plainly and lands on the list.
    if (!(form instanceof HTMLFormElement) || !(button instanceof HTMLButtonElement)) return
    if (button.name !== CARD_ADD_FIELD || event.defaultPrevented) return
    event.preventDefault()
    if (button.disabled) return
    button.disabled = true
    void addToRequestList(form, button).then((outcome) => {
      if (!outcome.ok) return submitPlainly(form, button)
      button.disabled = false
      const label = button.textContent
      button.textContent = REQUEST_LIST_TEXTS.addedShort
      setTimeout(() => (button.textContent = label), 2000)
    })
  }
  document.addEventListener('submit', onSubmit)
  return () => document.removeEventListener('submit', onSubmit)
}

/** The plain post after a refusal, with the button's value, which `form.submit()` alone leaves out. */
function submitPlainly(form: HTMLFormElement, button: HTMLButtonElement) {
  if (button.name) {
    const field = Object.assign(document.createElement('input'), {
      type: 'hidden',
      name: button.name,
      value: button.value,
    })
    form.append(field)
  }
  form.submit()
}
