import { useEffect, type ReactNode } from 'react'
import { MediaContext } from '../components/media-context'
import { LeadSettingsContext, type LeadSettings } from '../lead/lead-settings'
import type { CookieNoticeSettings } from '../site/cookie-consent'

/** What every island, and the page's own browser code, may read from the page: set once per page by the layout. */
export type IslandContext = {
  /** Origin that serves /media/ ('' = same origin) */
  mediaUrl: string
  lead: LeadSettings
  /** The cookie notice, only while the site has a counter (`lead.metrikaId`): renderer/+client.ts */
  cookie?: CookieNoticeSettings
}

/** The element holding the page's IslandContext as JSON (`<script type="application/json">`). */
export const ISLAND_CONTEXT_ID = 'island-context'
/** The custom element that wraps each island in the server's HTML. */
export const ISLAND_TAG = 'vitrina-island'

/**
 * The providers around an island: the server renders the island inside it and the browser
 * hydrates the same tree, so both produce the same markup (and the same useId values).
 */
export function IslandRoot({
  context,
  children,
  onHydrated,
}: {
  context: IslandContext
  children: ReactNode
  /** Called in the browser once the island has hydrated or rendered (its children's effects have run) */
  onHydrated?: () => void
}) {
  useEffect(() => onHydrated?.(), [onHydrated])
  return (
    <MediaContext value={context.mediaUrl}>
      <LeadSettingsContext value={context.lead}>{children}</LeadSettingsContext>
    </MediaContext>
  )
}
