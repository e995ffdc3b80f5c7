// Guards of the patches to Vike's compiled files (server/patches/, docs/decisions/018): each kept
// patch is in effect, and what it relies on in Vike still holds. An upgrade of Vike fails here
// first, by name: go through the decision's upgrade checklist before changing these expectations.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ROOT_DIR } from '../../server/config/config'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

const VIKE_DIR = path.join(ROOT_DIR, 'node_modules/vike')
const vikeFile = (file: string) => path.join(VIKE_DIR, file)
/** A module of Vike's that its package exports do not name, loaded by path. */
const vikeModule = async <T>(file: string): Promise<T> => (await import(pathToFileURL(vikeFile(file)).href)) as T

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

async function render(url = '/') {
  const { renderPage } = await import('vike/server')
  return renderPage({ urlOriginal: url, headersOriginal: {}, content: t.app.content, cspNonce: 'test-nonce' })
}

describe('the Vike the patches were made and measured for', () => {
  it('is 0.4.266, and every kept patch is applied', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(VIKE_DIR, 'package.json'), 'utf8')) as { version: string }
    expect(version, 'a new Vike: follow the upgrade checklist of docs/decisions/018').toBe('0.4.266')
    for (const file of [
      'dist/server/runtime/renderPageServer/createHttpResponse.js',
      'dist/shared-server-client/getPageContextPublicShared.js',
      'dist/utils/objectAssign.js',
      'dist/utils/catchInfiniteLoop.js',
    ]) {
      expect(fs.readFileSync(vikeFile(file), 'utf8'), file).toContain('Patched (vitrina')
    }
  })
})

describe('the shared getters (a getter closure per rendering kept every rendering alive)', () => {
  it('keeps httpResponse.body, its key order and pageContext._pageId', async () => {
    const pageContext = await render()
    const response = pageContext.httpResponse
    expect(Object.keys(response).slice(0, 5)).toEqual(['statusCode', 'headers', 'contentType', 'earlyHints', 'body'])
    const body = await response.getBody()
    expect(body).toContain('<title>')
    expect(response.body).toBe(body)
    expect((pageContext as unknown as { _pageId: unknown })._pageId).toBe(pageContext.pageId)
  })

  it('uses one getter function for every rendering, not a closure per rendering', async () => {
    const [a, b] = [await render('/'), await render('/structure/')]
    const getter = (object: object, key: string) => Object.getOwnPropertyDescriptor(object, key)?.get
    for (const key of ['body', 'contentType']) {
      expect(getter(a.httpResponse, key), key).toBeTypeOf('function')
      expect(getter(a.httpResponse, key), key).toBe(getter(b.httpResponse, key))
    }
    expect(getter(a, '_pageId')).toBeTypeOf('function')
    expect(getter(a, '_pageId')).toBe(getter(b, '_pageId'))
  })
})

describe('objectAssign (assigns plain data, defines everything else)', () => {
  it('copies values, getters and read-only properties as they are', async () => {
    const { objectAssign } = await vikeModule<{ objectAssign: (a: object, b: object) => void }>(
      'dist/utils/objectAssign.js',
    )
    const source = { plain: 1 }
    Object.defineProperty(source, 'computed', { get: () => 2, enumerable: true, configurable: true })
    Object.defineProperty(source, 'fixed', { value: 3, writable: false, enumerable: true, configurable: false })
    const target: Record<string, unknown> = { plain: 0 }
    objectAssign(target, source)
    expect(target).toMatchObject({ plain: 1, computed: 2, fixed: 3 })
    expect(Object.getOwnPropertyDescriptor(target, 'computed')?.get).toBeTypeOf('function')
    expect(Object.getOwnPropertyDescriptor(target, 'fixed')).toMatchObject({ writable: false, configurable: false })
    expect(Object.getOwnPropertyDescriptor(target, 'plain')).toMatchObject({ writable: true, enumerable: true })
  })
})

/** How many Map entries `run` reads: the trackers a catchInfiniteLoop() call looks at. */
function mapEntriesRead(run: () => void): number {
  const mapIterator = Object.getPrototypeOf(new Map().entries()) as { next(): IteratorResult<unknown> }
  const next = mapIterator.next
  let read = 0
  mapIterator.next = function (this: unknown) {
    const result = next.call(this)
    if (!result.done) read++
    return result
  }
  try {
    run()
  } finally {
    mapIterator.next = next
  }
  return read
}

describe('catchInfiniteLoop (pruned from the front, not walked on every rendering)', () => {
  const load = async () =>
    (await vikeModule<{ catchInfiniteLoop: (name: string) => void }>('dist/utils/catchInfiniteLoop.js'))
      .catchInfiniteLoop

  it('still stops a real loop, and forgets a key five seconds after it was first seen', async () => {
    const catchInfiniteLoop = await load()
    // Later than every tracker the renderings of this file made, so theirs go first.
    vi.useFakeTimers({ now: Date.now() + 60_000 })
    try {
      for (let i = 0; i < 99; i++) catchInfiniteLoop('guard()')
      expect(() => catchInfiniteLoop('guard()')).toThrow(/infinite loop/)
      vi.advanceTimersByTime(5_001)
      for (let i = 0; i < 99; i++) catchInfiniteLoop('guard()') // a new tracker: the old one was pruned
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads only the outdated trackers it drops and the first current one, never all of them', async () => {
    const catchInfiniteLoop = await load()
    // Later than every tracker made before (the test above went 65 s ahead).
    vi.useFakeTimers({ now: Date.now() + 120_000 })
    try {
      catchInfiniteLoop('first()') // drops every earlier tracker
      for (let i = 0; i < 10_000; i++) catchInfiniteLoop(`[request-${i}] guard()`)
      // 10,001 current trackers: a call looks at the oldest one and stops there.
      expect(mapEntriesRead(() => catchInfiniteLoop('[request-0] guard()'))).toBe(1)
      vi.advanceTimersByTime(5_001)
      // All of them outdated: one call reads and drops each, and they are gone for the next.
      expect(mapEntriesRead(() => catchInfiniteLoop('later()'))).toBe(10_001)
      expect(mapEntriesRead(() => catchInfiniteLoop('later()'))).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("Vike's AsyncLocalStorage, switched off in production (server/site/vike-async-store.ts)", () => {
  type AsyncHook = { getAsyncLocalStorage(): Promise<unknown> }
  it('is kept where the switch looks for it, and renderings do without it', async () => {
    const { ASYNC_HOOK_STATE, switchOffVikeAsyncStore } = await import('../../server/site/vike-async-store')
    const state = () =>
      (globalThis as { _vike?: { globals?: Record<string, { asyncLocalStorage: unknown }> } })._vike?.globals?.[
        ASYNC_HOOK_STATE
      ]
    const { getAsyncLocalStorage } = await vikeModule<AsyncHook>('dist/server/runtime/asyncHook.js')
    const store = await getAsyncLocalStorage()
    expect(store, 'Vike made no store: the switch has nothing to do').not.toBeNull()
    try {
      expect(await switchOffVikeAsyncStore()).toBe(true)
      expect(await getAsyncLocalStorage()).toBeNull()
      // Vike's renderers take a missing store as "render without one".
      for (const file of [
        'dist/server/runtime/renderPageServer.js',
        'dist/server/runtime/renderPageServer/renderPageServerAfterRoute.js',
      ]) {
        expect(fs.readFileSync(vikeFile(file), 'utf8'), file).toMatch(/!asyncLocalStorage \? (null|await render\(\))/)
      }
      const pageContext = await render()
      expect(pageContext.httpResponse.statusCode).toBe(200)
      expect(await pageContext.httpResponse.getBody()).toContain('<title>')
    } finally {
      state()!.asyncLocalStorage = store
    }
  })
})
