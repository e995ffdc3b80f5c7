// The pages of two instances compared as a visitor sees them (the content tools' round trips:
// test/api/content-tools.test.ts, content-variants.test.ts), minus what differs between instances by design.
import type { TestApp } from './build-test-app'

/** The page as a visitor sees it, minus what differs between instances by design. */
export function normalisePage(html: string): string {
  return (
    html
      .replace(/(?:demo|uploads)\\?\/[A-Za-z0-9._-]+/g, 'IMAGE') // stored names differ (SVG demo images arrive as PNG)
      .replace(/[?&](?:v|t)=[0-9a-f]+/g, '') // dev-server cache busters (and a variant's id in its link)
      .replace(/\/assets\/[^"']+/g, '/assets/X')
      .replace(/ nonce="[\w-]+"/g, '') // a fresh CSP nonce for every rendering
      // React preloads each distinct image src once per page; the import rasterises the demo SVGs,
      // and images that rasterise alike share one content-hashed file, so preload hints may differ.
      .replace(/<link rel="preload" as="image"[^>]*>/g, '')
      // The rasterised uploads come with their responsive variants; SVG needs none.
      .replace(/<picture class="image-set">(?:<source [^>]*\/>)*|<\/picture>/g, '')
  )
}

/** A public page of the instance, as a browser asks for it. */
export const visit = (t: TestApp, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
