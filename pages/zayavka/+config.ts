// https://vike.dev/passToClient — the values and messages of a no-JS post the server sent back
// (rendered into that one response only, never into a URL).
import type { Config } from 'vike/types'

export default {
  passToClient: ['leadFormState'],
  // Made anew for each visitor: it carries its own idempotency key and fill time.
  pageCache: false,
} satisfies Config
