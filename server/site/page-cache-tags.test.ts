// The page cache's selective drops (docs/decisions/033-selective-invalidation.md): a write drops the
// entries whose tags it changed and keeps the others; a rendering under way while a write changes
// what it read is served but not kept, one the write does not concern is kept.
import { describe, expect, it } from 'vitest'
import { PageCache, type RenderedPage } from './page-cache'

const page = (body: string, tags: string[]): RenderedPage => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: Buffer.from(body),
  keepAs: null,
  query: [],
  tags: new Set(tags),
})

async function keep(cache: PageCache, key: string, tags: string[]) {
  await cache.get(key, async () => ({ ...page(key, tags), keepAs: key }))
}

describe('the page cache drops what a write changed', () => {
  it('drops the entries whose tags meet the change, keeps the rest, and every entry for every page', async () => {
    const cache = new PageCache(1 << 20)
    await keep(cache, '/a', ['r1', 'l9'])
    await keep(cache, '/b', ['r2', 'l9'])
    await keep(cache, '/c', ['r3'])
    await keep(cache, '/d', [])
    cache.drop(new Set(['r1']))
    expect(['/a', '/b', '/c', '/d'].map((key) => Boolean(cache.peek(key)))).toEqual([false, true, true, true])
    cache.drop(new Set(['l9', 'r7']))
    expect(['/b', '/c', '/d'].map((key) => Boolean(cache.peek(key)))).toEqual([false, true, true])
    cache.drop('every page')
    expect(cache.size.entries).toBe(0)
  })

  it('does not keep a rendering under way when a write changes what it read; keeps one the write does not concern', async () => {
    const cache = new PageCache(1 << 20)
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const concerned = cache.get('/a', async () => {
      await gate
      return { ...page('a', ['r1']), keepAs: '/a' }
    })
    const other = cache.get('/b', async () => {
      await gate
      return { ...page('b', ['r2']), keepAs: '/b' }
    })
    cache.drop(new Set(['r1']))
    release()
    expect((await concerned).page.body.toString()).toBe('a')
    await other
    expect(cache.peek('/a')).toBeUndefined()
    expect(cache.peek('/b')).toBeDefined()
  })

  it('forgets the tags of an entry replaced or pushed out', async () => {
    const cache = new PageCache(1 << 20)
    await keep(cache, '/a', ['r1'])
    cache.drop(new Set(['r1']))
    await keep(cache, '/a', ['r2'])
    cache.drop(new Set(['r1']))
    expect(cache.peek('/a')).toBeDefined()
    cache.drop(new Set(['r2']))
    expect(cache.peek('/a')).toBeUndefined()
  })
})
