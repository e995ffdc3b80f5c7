// A page kept under its cache key has no tracking tags (utm_*, yclid…, src/lead/lead-source.ts):
// a redirect taken from the cache gets the request's own put back on its Location.
import type { RenderedPage } from './page-cache'
import { VISIT_TAG_KEYS } from '../../src/lead/lead-source'

const TRACKING = new Set<string>(VISIT_TAG_KEYS)

/**
 * A redirect rendered from the cache key (tracking tags left out) with the request's tracking tags
 * put back on its Location; any other answer as it is.
 */
export function withTrackingTags(page: RenderedPage, requestUrl: string): RenderedPage {
  const { location } = page.headers
  if (!location) return page
  const request = new URL(requestUrl, 'http://localhost')
  const target = new URL(location, 'http://localhost')
  for (const [name, value] of request.searchParams) {
    if (TRACKING.has(name) && !target.searchParams.has(name)) target.searchParams.append(name, value)
  }
  const moved = location.startsWith('/') ? `${target.pathname}${target.search}` : target.href
  return { ...page, headers: { ...page.headers, location: moved } }
}

/** A cached redirect's target with the request's own tracking parameters put back on it. */
export function withTrackingOf(location: string, requestUrl: string): string {
  const request = new URL(requestUrl, 'http://localhost')
  const target = new URL(location, 'http://localhost')
  for (const [name, value] of request.searchParams) {
    if (!target.searchParams.has(name)) target.searchParams.append(name, value)
  }
  return location.startsWith('/') ? `${target.pathname}${target.search}` : target.href
}
