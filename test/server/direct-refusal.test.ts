// The direct path (docs/decisions/037-one-document.md) refuses what it does not reproduce, never
// serves a different page: when Vike's HTML is not the document function's output with Vike's two
// pieces added, or the catalogue's page has a setting or hook the path does not do or has not
// decided on, or a component reads a pageContext field the path does not give, the server logs one
// warning and every page keeps going through Vike, answered as a server without the path answers.
import { createElement, type ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Writable } from 'node:stream'
import { buildApp, type App } from '../../server/app'
import { DirectRenderer, type VikeRendering } from '../../server/site/direct-render'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const PAGES = ['/', '/structure/power-tools/', '/structure/power-tools/angle-grinder', '/politika', '/']

/** A layout that reads a field of pageContext the direct path does not give. */
function ReadsHeaders({ children }: { children?: ReactNode }) {
  const { headersOriginal } = usePageContext() as { headersOriginal?: unknown }
  return createElement('div', { 'data-headers': String(Boolean(headersOriginal)) }, children)
}

function Passthrough({ children }: { children?: ReactNode }) {
  return children
}

type Tamper = (rendering: VikeRendering, html: string) => [VikeRendering, string]

const withConfig =
  (extra: Record<string, unknown>): Tamper =>
  (rendering, html) => [{ ...rendering, config: { ...rendering.config, ...extra } }, html]

const CASES: [name: string, tamper: Tamper, reason: RegExp][] = [
  [
    'a document Vike rendered otherwise',
    (rendering, html) => [rendering, html.replace('<body>', '<body data-altered="">')],
    /its HTML differs from what Vike rendered/,
  ],
  ['a document setting the document function does not make', withConfig({ Wrapper: [Passthrough] }), /sets Wrapper/],
  ['a Vike hook the path does not run', withConfig({ onBeforeRender: () => undefined }), /sets onBeforeRender/],
  ['a setting nobody has decided on', withConfig({ somethingNew: true }), /sets somethingNew/],
  [
    'a pageContext field the path does not give',
    (rendering, html) => {
      const config = rendering.config as { Layout?: unknown[] }
      return [{ ...rendering, config: { ...config, Layout: [...(config.Layout ?? []), ReadsHeaders] } }, html]
    },
    /reads pageContext\.headersOriginal/,
  ],
]

async function get(app: Pick<App, 'inject'>, url: string) {
  const res = await app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy'] ?? ''))?.[1]
  const body = nonce ? res.body.split(nonce).join('NONCE') : res.body
  return { status: res.statusCode, type: res.headers['content-type'], body }
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the direct path's refusals on ${dialect.name}`, () => {
    let vike: TestApp
    beforeAll(async () => {
      vike = await dialect.build({ PAGE_CACHE_MB: '0' }, { directRender: false })
    })
    afterAll(async () => vike?.close())
    afterEach(() => vi.restoreAllMocks())

    for (const [name, tamper, reason] of CASES) {
      it(`sends every page through Vike, with one warning, for ${name}`, async () => {
        const learn = DirectRenderer.prototype.learn
        vi.spyOn(DirectRenderer.prototype, 'learn').mockImplementation(function (this: DirectRenderer, r, url, h, n) {
          const [rendering, html] = tamper(r, h)
          learn.call(this, rendering, url, html, n)
        })
        const lines: string[] = []
        const logStream = new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(...chunk.toString().split('\n').filter(Boolean))
            done()
          },
        })
        const direct = await buildApp({ ...vike.config, logLevel: 'warn' }, { directRender: true, logStream })
        try {
          for (const url of PAGES) {
            const expected = await get(vike.app, url)
            expect(expected.status, url).toBe(200)
            expect(await get(direct, url), url).toEqual(expected)
          }
          expect(direct.pages.renderings).toEqual({ vike: PAGES.length, direct: 0 })
          const warnings = lines.filter((line) => line.includes("pages go through Vike's renderPage only"))
          expect(warnings).toHaveLength(1)
          expect(warnings[0]).toMatch(reason)
        } finally {
          await direct.close()
        }
      })
    }

    it('learns the page when nothing is refused (the cases above differ from it by their tampering only)', async () => {
      const direct = await buildApp(vike.config, { directRender: true })
      try {
        for (const url of PAGES) expect(await get(direct, url), url).toEqual(await get(vike.app, url))
        expect(direct.pages.renderings).toEqual({ vike: 1, direct: PAGES.length - 1 })
      } finally {
        await direct.close()
      }
    })
  })
}
