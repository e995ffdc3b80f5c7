// https://vike.dev/onAfterRenderClient — `.clear` drops the site's hook: it rewrites the head tags of
// public pages (robots, canonical, Open Graph) and remembers a visit's advertising tags for leads,
// none of which belongs to the back office.
import type { PageContextClient } from 'vike/types'

export function onAfterRenderClient(pageContext: PageContextClient): void {
  // After moving to another screen, keyboard and screen-reader users start at its content, not
  // at the link they followed (which the new screen may not even have).
  if (!pageContext.isHydration) document.getElementById('main')?.focus()
}
