// The home page's HTML as a phone receives it (issue #34: at most 4 KiB gzip on the peer
// benchmark's page, docs/decisions/035-lighter-html.md): raw, gzip and brotli as the server sends
// them, with a counter configured (the cookie notice's settings are then part of every page) and
// without, and what each part of the page costs: the bytes it adds, raw and gzip (level 6, the
// server's), found by taking it out of the page and compressing again. Parts overlap (a product card's classes are in
// "class attributes" and in "product cards"), so they do not add up to the total.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import { request } from 'undici'
import { ADMIN_TOKEN } from '../api/helpers'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, startProdServer } from '../helpers/prod-server'
import { photographFeatured, seedBenchCatalogue } from './fixture'

/** Issue #34's floor for the benchmark page, gzip. */
const FLOOR_GZIP_KIB = 4

/** Each part of a page, matched by what takes it out (parts may overlap). */
const PARTS: [label: string, pattern: RegExp][] = [
  ['head: favicon link', /<link rel="icon"[^>]*>/g],
  ['head: title, description', /<title>.*?<\/title>|<meta name="description"[^>]*>/gs],
  ['head: Open Graph', /<meta property="og:[^>]*>/g],
  ['head: canonical', /<link rel="canonical"[^>]*>/g],
  ['head: JSON-LD', /<script type="application\/ld\+json">.*?<\/script>/gs],
  ['head: other meta', /<meta name="(?:viewport|theme-color|format-detection|vitrina-query)"[^>]*>/g],
  ['stylesheet and script tags', /<link rel="stylesheet"[^>]*>|<script src="[^"]*"[^>]*><\/script>/g],
  ['whitespace between tags', />\s+</g],
  ['island props (data-props)', / data-props="[^"]*"/g],
  ['island shared values (island-context)', /<script type="application\/json" id="island-context">.*?<\/script>/gs],
  ['island wrappers, props included', /<vitrina-island[^>]*>|<\/vitrina-island>/g],
  ['class attributes', / class="[^"]*"/g],
  ['aria-* and role attributes', / (?:aria-[a-z]+|role)="[^"]*"/g],
  ['img loading, decoding, fetchPriority', / (?:loading|decoding|fetchPriority)="[^"]*"/g],
  ['<picture> sources (srcset, sizes, type)', /<picture[^>]*>|<\/picture>|<source [^>]*\/>/g],
  ['React image preloads in <body>', /<link rel="preload" as="image"[^>]*\/>/g],
  ['header', /<header.*?<\/header>/gs],
  ['slider', /<section class="slider".*?<\/section>/gs],
  ['advantages', /<section class="advantages".*?<\/section>/gs],
  ['product cards', /<article class="card">.*?<\/article>/gs],
  ['footer', /<footer.*?<\/footer>/gs],
]

const gzip = (html: string) => zlib.gzipSync(html, { level: 6 }).length
const kib = (bytes: number) => (bytes / 1024).toFixed(2)

/** What each part of `html` adds to it, raw and gzip; parts not in the page are left out. */
export function htmlBreakdown(html: string): Record<string, string | number>[] {
  const raw = Buffer.byteLength(html)
  const packed = gzip(html)
  const rows: Record<string, string | number>[] = []
  for (const [part, pattern] of PARTS) {
    const without = html.replace(pattern, part.startsWith('whitespace') ? '><' : '')
    if (without === html) continue
    rows.push({ part, 'B raw': raw - Buffer.byteLength(without), 'B gzip': packed - gzip(without) })
  }
  return rows
}

/**
 * The benchmark's home page, with and without a counter: sizes as sent, the floor, the parts.
 * @param photos the 12 cards with uploaded photos (`<picture>` of their variants), not the demo's drawings
 */
export async function benchHtmlSize(photos = false): Promise<void> {
  ensureBuild()
  const dir = tempDir('vitrina-bench-html-')
  try {
    const seeding = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN }, dir)
    let shows: string
    try {
      shows = await seedBenchCatalogue(seeding.url, ADMIN_TOKEN)
      if (photos) {
        await photographFeatured(seeding.url, ADMIN_TOKEN)
        shows += ', photographed'
      }
    } finally {
      await seeding.stop()
    }
    const sizes: Record<string, string | number>[] = []
    let withCounter = ''
    for (const counter of [true, false]) {
      const server = await startProdServer({ LOG_LEVEL: 'error', ...(counter ? { METRIKA_ID: '12345678' } : {}) }, dir)
      try {
        // undici's request leaves the body as sent (fetch would decompress it).
        const body = async (encoding: string) =>
          Buffer.from(
            await (await request(`${server.url}/`, { headers: { 'accept-encoding': encoding } })).body.arrayBuffer(),
          )
        const size = async (encoding: string) => (await body(encoding)).length
        const html = (await body('identity')).toString()
        if (counter) withCounter = html
        // `HTML_SIZE_OUT=<file>`: the page with a counter, as measured, for a look at its parts.
        if (counter && process.env.HTML_SIZE_OUT) fs.writeFileSync(process.env.HTML_SIZE_OUT, html)
        const gz = await size('gzip')
        sizes.push({
          'home page': counter ? 'with a counter (METRIKA_ID)' : 'without a counter',
          'KiB raw': kib(await size('identity')),
          'KiB gzip': kib(gz),
          'KiB br': kib(await size('br')),
          [`floor ${FLOOR_GZIP_KIB} KiB gzip`]: gz <= FLOOR_GZIP_KIB * 1024 ? 'met' : 'NOT met',
        })
      } finally {
        await server.stop()
      }
    }
    console.log(
      `HTML of the home page (${shows}), as the server sends it (issue #34's floor: ${FLOOR_GZIP_KIB} KiB gzip):`,
    )
    console.table(sizes)
    console.log('What each part of it costs, with a counter (taken out, compressed again; parts overlap):')
    console.table(htmlBreakdown(withCounter))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// `node --import tsx test/bench/html-size.ts [photos]`
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await benchHtmlSize(process.argv[2] === 'photos')
}
