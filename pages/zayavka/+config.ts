// https://vike.dev/config — the plain lead form page.
import type { Config } from 'vike/types'

export default {
  // Made anew for each visitor: it carries its own idempotency key and fill time.
  pageCache: false,
  // ?oshibka=1: the server could not render the refused form back (server/leads/intake/form-page.ts).
  // ?tovar=N: the product a product page's «Оставить заявку» asks about (pages/zayavka/+data.ts).
  pageQuery: ['oshibka', 'tovar'],
} satisfies Config
