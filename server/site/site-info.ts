// What the layout shows around every page: the header and footer of the index record that owns
// the URL (its logo, phone, menu of sections, footer links, consent and policy pages).
import type { NavLink, SiteInfo } from '../../src/site/types'
import { descendants, publicChildren, type IndexEntry, type RouteMap } from '../content/route-map'

/**
 * Sections the header's menu lists at most: every page carries the menu, so it must not grow with
 * the catalogue (200 sections made every page 30 KB heavier); the rest are a click away, in the
 * catalogue's tiles (docs/decisions/031-sections-and-scale.md).
 */
export const MENU_MAX_SECTIONS = 12

export function buildSiteInfo(routes: RouteMap, owner: IndexEntry): SiteInfo {
  const entry = routes.byId.get(owner.id)
  const menu: NavLink[] = descendants(routes, owner.id, (e) => e.typeId === 'section', 2)
    .slice(0, MENU_MAX_SECTIONS)
    .map((e) => ({ title: e.title, url: e.urlFull }))
  const pages = publicChildren(routes, owner.id, 'page')
  const bySlug = (slug: string) => pages.find((p) => p.urlFull.replace(/\/$/, '').endsWith(`/${slug}`))?.urlFull ?? null
  return {
    id: owner.id,
    url: owner.urlFull,
    title: entry?.title ?? '',
    ...owner.index,
    menu,
    footerLinks: pages.map((p) => ({ title: p.title, url: p.urlFull })),
    consentUrl: bySlug('soglasie'),
    policyUrl: bySlug('politika'),
    cookiesUrl: bySlug('cookies'),
  }
}
