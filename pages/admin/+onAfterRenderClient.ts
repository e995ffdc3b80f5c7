// https://vike.dev/onAfterRenderClient — the back office is the only page Vike renders and routes in
// the browser (docs/decisions/020-back-office-pages.md).
import type { PageContextClient } from 'vike/types'

export function onAfterRenderClient(pageContext: PageContextClient): void {
  // After moving to another screen, keyboard and screen-reader users start at its content, not
  // at the link they followed (which the new screen may not even have).
  if (!pageContext.isHydration) document.getElementById('main')?.focus()
}
