// Every Vike and vike-react setting and hook the catalogue's page has is either honoured or
// refused by the direct path, never skipped (docs/decisions/037-one-document.md): a `+` file or a
// `+config.ts` key that pages/cms or renderer/ start to define, a setting vike-react starts to
// declare, or a setting in Vike's pageContext.config for the page, that server/site/direct-settings.ts
// has not decided on fails here by name, before it can make the two paths answer differently.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import vikeReact from 'vike-react/config'
import { ROOT_DIR } from '../../server/config/config'
import { DirectRenderer } from '../../server/site/direct-render'
import {
  DIRECT_SETTINGS,
  HONOURED,
  INERT,
  pageContextOf,
  REFUSED,
  RefusedField,
  refusedSettings,
} from '../../server/site/direct-settings'
import rendererConfig from '../../renderer/+config'
import cmsConfig from '../../pages/cms/+config'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

/** The settings and hooks the `+` files of a folder define: `+data.ts` → data, `+Head.clear.tsx` → Head. */
function plusFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT_DIR, dir))
    .filter((file) => file.startsWith('+') && /\.(ts|tsx)$/.test(file))
    .map((file) => file.slice(1).split('.')[0])
    .filter((name) => name !== 'config')
}

const undecided = (names: Iterable<string>) => [...new Set(names)].filter((name) => !DIRECT_SETTINGS.has(name)).sort()

describe('the settings the direct path has decided on', () => {
  it('lists each setting once: honoured, inert or refused', () => {
    const all = [...Object.keys(HONOURED), ...Object.keys(INERT), ...Object.keys(REFUSED)]
    expect(all.length).toBe(DIRECT_SETTINGS.size)
  })

  it('covers every + file of pages/cms and renderer/', () => {
    expect(undecided([...plusFiles('pages/cms'), ...plusFiles('renderer')])).toEqual([])
  })

  it('covers every key of their +config.ts files, and every setting those declare', () => {
    const keys = [rendererConfig, cmsConfig].flatMap((config) => [
      ...Object.keys(config),
      ...Object.keys((config as { meta?: object }).meta ?? {}),
    ])
    expect(undecided(keys)).toEqual([])
  })

  it('covers every setting vike-react, which renderer/+config.ts extends, sets or declares', () => {
    expect(undecided([...Object.keys(vikeReact), ...Object.keys(vikeReact.meta ?? {})])).toEqual([])
  })

  it('gives a component only the pageContext fields it has, and refuses any other by name', () => {
    const pageContext = pageContextOf({ urlPathname: '/', site: null })
    expect(pageContext.urlPathname).toBe('/')
    expect(pageContext.site).toBeNull()
    expect(() => (pageContext as Record<string, unknown>).urlParsed).toThrow(RefusedField)
    expect(() => (pageContext as Record<string, unknown>).headersOriginal).toThrow('pageContext.headersOriginal')
    expect((pageContext as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined()
  })
})

describe("the catalogue page's settings as Vike hands them to the server", () => {
  let t: TestApp
  let config: Record<string, unknown> = {}
  beforeAll(async () => {
    const learn = DirectRenderer.prototype.learn
    vi.spyOn(DirectRenderer.prototype, 'learn').mockImplementation(function (this: DirectRenderer, r, url, h, n) {
      if (url === '/') config = r.config as Record<string, unknown>
      learn.call(this, r, url, h, n)
    })
    t = await buildTestApp({ PAGE_CACHE_MB: '0' })
    expect((await t.app.inject({ url: '/' })).statusCode).toBe(200)
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await t?.close()
  })

  it('are each decided on, and none is refused: the page is rendered without Vike', async () => {
    expect(Object.keys(config)).toContain('document')
    expect(undecided(Object.keys(config))).toEqual([])
    expect(refusedSettings(config)).toEqual([])
    await t.app.inject({ url: '/politika' })
    expect(t.app.pages.renderings).toEqual({ vike: 1, direct: 1 })
  })
})
