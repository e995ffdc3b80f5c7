// https://vike.dev/route-function — one page for the whole back office: `/admin` and everything
// under `/admin/`, ahead of the catch-all `/*` of pages/cms (a route function without a precedence
// number beats a parameterised route string). One page, not one per screen: every page costs
// every public page an entry in Vike's client route table (docs/decisions/020-back-office-pages.md).
import type { PageContext } from 'vike/types'
import { isAdminPath } from '../../src/site/paths'

export function route({ urlPathname }: PageContext): boolean {
  return isAdminPath(urlPathname)
}
