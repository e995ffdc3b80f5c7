// https://vike.dev/config — the plain lead form page.
import type { Config } from 'vike/types'

export default {
  // Made anew for each visitor: it carries its own idempotency key and fill time.
  pageCache: false,
  // ?oshibka=1: the server could not render the refused form back (server/leads/intake/form-page.ts).
  pageQuery: ['oshibka'],
} satisfies Config
