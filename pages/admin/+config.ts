// https://vike.dev/config — the back office: rendered in the browser only (it shows nothing
// without a session, and nothing of it is worth server rendering or caching).
import type { Config } from 'vike/types'

export default {
  ssr: false,
  // Rendered and routed by Vike in the browser, unlike the HTML-only public pages.
  clientHooks: true,
  // The media origin for image previews (the public pages, HTML only, pass nothing to the browser).
  passToClient: ['publicSettings'],
  // Never cached, never indexed, whatever spelling of the URL reached it.
  pageCache: false,
  pageHeaders: { 'x-robots-tag': 'noindex, nofollow' },
  // No Speculation-Rules header: its head (+Head.clear.tsx) never had the site's rules either.
  speculationRules: false,
} satisfies Config
