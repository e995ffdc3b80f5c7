// https://vike.dev/config — the plain lead form page.
import type { Config } from 'vike/types'

export default {
  // Made anew for each visitor: it carries its own idempotency key and fill time.
  pageCache: false,
} satisfies Config
