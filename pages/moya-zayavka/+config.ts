// https://vike.dev/config — the visitor's request list (docs/decisions/041-request-list.md).
import type { Config } from 'vike/types'

export default {
  // Made anew for each visitor from their cookie: never kept, never shared.
  pageCache: false,
  // ?oshibka=1: the server could not render the refused form back (server/leads/intake/form-page.ts).
  pageQuery: ['oshibka'],
  pageHeaders: { 'x-robots-tag': 'noindex' },
} satisfies Config
