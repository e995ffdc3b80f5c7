const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]',
].join(',')

/** The elements Tab reaches inside `root`, in order, skipping hidden and tabindex=-1 ones. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      element.tabIndex >= 0 && !element.closest('[inert],[aria-hidden="true"]') && element.getClientRects().length > 0,
  )
}

/** The element to focus when a dialog opens: one marked data-autofocus, the first field, or the dialog. */
export function initialFocus(dialog: HTMLElement): HTMLElement {
  return (
    dialog.querySelector<HTMLElement>('[data-autofocus]') ??
    tabbables(dialog).find((element) => element.matches('input,select,textarea')) ??
    dialog
  )
}
