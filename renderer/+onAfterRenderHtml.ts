// https://vike.dev/onAfterRenderHtml — server only: runs right after React rendered the page.
//
// React builds the page's HTML by appending thousands of small pieces, so the string it returns is
// a tree of them (a V8 "cons string"). vike-react keeps that string in pageContext, and pageContext
// outlives a few scavenges of the young heap: each one copied the whole tree and then promoted it
// to the old generation, a third of an uncached page's CPU time. Reading the string with a regular
// expression makes V8 flatten it in place (one copy, which Vike's own first regex over the page
// would otherwise make of the whole document), so what survives is one flat string
// (docs/decisions/018-lean-uncached-path.md, "the page string").
import type { PageContextServer } from 'vike/types'

const ANY_NUL = /\0/

export function onAfterRenderHtml(pageContext: PageContextServer): void {
  const html = pageContext.pageHtmlString
  if (typeof html === 'string') ANY_NUL.test(html)
}
