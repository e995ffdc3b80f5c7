// https://vike.dev/onAfterRenderClient — vike-react updates only title and description on client
// navigation (+Head applies to the first HTML only), so the rest of the head follows here.
import type { PageContextClient } from 'vike/types'
import { rememberVisitTags } from '../src/lead/lead-source'

export async function onAfterRenderClient(pageContext: PageContextClient) {
  if (pageContext.isHydration) {
    // The landing page of the visit: its advertising tags go with a lead sent later.
    rememberVisitTags(location.search)
    return
  }
  // Not in the first page's JavaScript: only a client navigation needs it
  // (docs/decisions/016-fast-pages.md).
  const { updateHeadTags } = await import('./head-update')
  updateHeadTags(pageContext)
}
