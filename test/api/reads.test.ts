// The generic read API (docs/contract.md §3) against the real app and its demo SQLite database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, AUTH, STRUCTURE_LOAD } from './helpers'
import { multipartBody } from '../helpers/multipart'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
})
afterAll(async () => {
  await t?.close()
})

function get(path: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const search = stringifyQuery(params)
  return t.app.inject({ method: 'GET', url: search ? `${path}?${search}` : path, headers })
}

const CATALOGUE_TREE = {
  select: {
    title: true,
    sort: true,
    sliderItems: { select: { image: true } },
    advantages: { select: { image: true, description: true } },
    children: {
      orderBy: { sort: 'asc' },
      select: {
        title: true,
        sort: true,
        children: {
          orderBy: { sort: 'asc' },
          select: {
            title: true,
            sort: true,
            children: {
              orderBy: { sort: 'asc' },
              select: {
                title: true,
                sort: true,
                urlFull: true,
                product: { select: { image: true, article: true, price: true } },
              },
            },
          },
        },
      },
    },
  },
  where: { urlFull: '/' },
}

describe("the spec's two calls", () => {
  it('answers the structure load with the index record and its contacts under data, cached for 120 s', async () => {
    const res = await get('/api/many/structure', { query: STRUCTURE_LOAD, ttl: 120 })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/json/)
    expect(res.headers['cache-control']).toBe('public, max-age=120, stale-while-revalidate=120')
    const { data } = res.json()
    expect(data).toEqual([
      {
        id: expect.any(Number),
        parentId: null,
        typeId: 'index',
        urlFull: '/',
        index: {
          logo: expect.stringMatching(/^demo\/logo-/),
          tel: '+7 (495) 123-45-67',
          telText: 'Ежедневно с 9:00 до 21:00',
          description: expect.any(String),
          copyright: expect.stringContaining('ТехноМастер'),
        },
      },
    ])
  })

  it('answers the catalogue tree with sections by sort, products with image, article and price, slides and advantages', async () => {
    const res = await get('/api/structure', { query: CATALOGUE_TREE })
    expect(res.statusCode).toBe(200)
    const { data } = res.json()
    expect(data.sliderItems.length).toBeGreaterThan(0)
    expect(data.sliderItems[0]).toEqual({ image: expect.stringMatching(/^demo\//) })
    expect(data.advantages[0]).toEqual({ image: expect.any(String), description: expect.any(String) })
    const catalogue = data.children.find((c: any) => c.title === 'Каталог')
    expect(catalogue).toBeDefined()
    const sorts = data.children.map((c: any) => c.sort)
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b))
    const sections = catalogue.children
    expect(sections.map((s: any) => s.sort)).toEqual(
      [...sections.map((s: any) => s.sort)].sort((a: number, b: number) => a - b),
    )
    expect(sections.length).toBeGreaterThan(1)
    const products = sections[0].children
    expect(products[0]).toMatchObject({
      urlFull: '/structure/product',
      product: { image: expect.any(String), article: expect.any(String), price: expect.any(Number) },
    })
    expect(products.map((p: any) => p.sort)).toEqual([...products.map((p: any) => p.sort)].sort((a, b) => a - b))
  })
})

describe('query shapes', () => {
  it("uses the model's default selection when the query names none", async () => {
    const { data } = (await get('/api/many/structure', { query: { take: 1 } })).json()
    expect(Object.keys(data[0])).toEqual(['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort'])
  })

  it('answers the first match under data, and 404 with an error when nothing matches', async () => {
    const one = await get('/api/structure', {
      query: { where: { urlFull: '/structure/product' }, select: { title: true, published: true } },
    })
    expect(one.statusCode).toBe(200)
    expect(one.json().data).toEqual({ title: expect.any(String), published: true })
    const none = await get('/api/structure', { query: { where: { urlFull: '/nothing-here' } } })
    expect(none.statusCode).toBe(404)
    expect(none.json().error.message).toMatch(/не найдена/)
  })

  it('filters with equals, not, in, notIn, lt, lte, gt, gte, contains, startsWith, AND, OR and NOT', async () => {
    const ids = async (where: unknown) =>
      (await get('/api/many/structure', { query: { where, select: { id: true }, orderBy: { id: 'asc' } } }))
        .json()
        .data.map((r: any) => r.id)
    const all: number[] = await ids({})
    expect(all.length).toBeGreaterThan(10)
    expect(await ids({ id: { equals: all[2] } })).toEqual([all[2]])
    expect(await ids({ id: all[2] })).toEqual([all[2]])
    expect(await ids({ id: { not: all[0] } })).toEqual(all.slice(1))
    expect(await ids({ id: { in: [all[1], all[3]] } })).toEqual([all[1], all[3]])
    expect(await ids({ id: { notIn: all.slice(1) } })).toEqual([all[0]])
    expect(await ids({ id: { lt: all[2] } })).toEqual(all.slice(0, 2))
    expect(await ids({ id: { lte: all[2] } })).toEqual(all.slice(0, 3))
    expect(await ids({ id: { gt: all[all.length - 2] } })).toEqual(all.slice(-1))
    expect(await ids({ id: { gte: all[all.length - 2] } })).toEqual(all.slice(-2))
    expect((await ids({ urlFull: { startsWith: '/structure/power-tools/' } })).length).toBeGreaterThanOrEqual(6)
    expect((await ids({ title: { contains: 'шуруповёрт' } })).length).toBeGreaterThan(0)
    expect(await ids({ AND: [{ id: { gt: all[0] } }, { id: { lt: all[2] } }] })).toEqual([all[1]])
    expect(await ids({ OR: [{ id: all[0] }, { id: all[4] }] })).toEqual([all[0], all[4]])
    expect(await ids({ NOT: { id: { gt: all[0] } } })).toEqual([all[0]])
    expect(await ids({ parentId: null })).toEqual([all[0]])
    expect(await ids({ id: { in: [] } })).toEqual([])
  })

  it('treats % and _ in contains as plain characters', async () => {
    const res = await get('/api/many/structure', { query: { where: { title: { contains: '%' } } } })
    expect(res.json().data).toEqual([])
    const under = await get('/api/many/structure', {
      query: { where: { urlFull: { startsWith: '/structure/power_tools' } } },
    })
    expect(under.json().data).toEqual([])
  })

  it('orders, takes and skips, also inside a relation', async () => {
    const desc = (
      await get('/api/many/structure', { query: { orderBy: [{ id: 'desc' }], take: 3, skip: 1, select: { id: true } } })
    ).json().data
    expect(desc).toHaveLength(3)
    expect(desc[0].id).toBeGreaterThan(desc[1].id)
    const res = await get('/api/structure', {
      query: {
        where: { urlFull: '/structure/' },
        select: { children: { orderBy: { sort: 'desc' }, take: 2, skip: 1, select: { sort: true } } },
      },
    })
    const sorts = res.json().data.children.map((c: any) => c.sort)
    expect(sorts).toHaveLength(2)
    expect(sorts[0]).toBeGreaterThan(sorts[1])
  })

  it('loads a relation with true as its default selection, and the parent of a record', async () => {
    const res = await get('/api/structure', {
      query: {
        where: { urlFull: '/structure/product' },
        select: { product: true, parent: { select: { urlFull: true } } },
      },
    })
    expect(res.json().data).toEqual({
      product: {
        structureId: expect.any(Number),
        image: expect.any(String),
        article: 'ЭИ-1001',
        price: expect.any(Number),
      },
      parent: { urlFull: '/structure/power-tools/' },
    })
  })

  it('reads the parts as models of their own', async () => {
    for (const model of ['index', 'product', 'sliderItems', 'advantages', 'orderType']) {
      const res = await get(`/api/many/${model}`)
      expect(res.statusCode, model).toBe(200)
      expect(res.json().data.length, model).toBeGreaterThan(0)
    }
  })

  it('answers picker options as id and title', async () => {
    const res = await get('/api/provider/structure', { query: { where: { typeId: 'section' }, take: 2 } })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toEqual([
      { id: expect.any(Number), title: expect.any(String) },
      { id: expect.any(Number), title: expect.any(String) },
    ])
  })

  it('hides unpublished records from visitors and shows them with the admin token', async () => {
    await t.app.db
      .updateTable('structure')
      .set({ published: 0 })
      .where('urlFull', '=', '/structure/power-tools/jigsaw')
      .execute()
    const query = { where: { urlFull: '/structure/power-tools/jigsaw' }, select: { published: true } }
    expect((await get('/api/structure', { query })).statusCode).toBe(404)
    const admin = await get('/api/structure', { query }, { authorization: `Bearer ${ADMIN_TOKEN}` })
    expect(admin.statusCode).toBe(200)
    expect(admin.json().data).toEqual({ published: false })
    expect(admin.headers['cache-control']).toBe('no-store, private')
    await t.app.db
      .updateTable('structure')
      .set({ published: 1 })
      .where('urlFull', '=', '/structure/power-tools/jigsaw')
      .execute()
  })
})

describe('malformed queries', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['bad JSON', '{"select":', /некорректный JSON/],
    ['a JSON array', '[1,2]', /JSON-объектом/],
    [
      'an unknown field in select',
      JSON.stringify({ select: { foo: true } }),
      /Неизвестное поле "foo" в модели structure/,
    ],
    ['an unknown field in where', JSON.stringify({ where: { password: 'x' } }), /Неизвестное поле "password"/],
    [
      'an unknown field in a relation',
      JSON.stringify({ select: { children: { select: { secret: true } } } }),
      /Неизвестное поле "secret" в модели structure/,
    ],
    [
      'an unknown operator',
      JSON.stringify({ where: { title: { regex: '.*' } } }),
      /Неизвестный оператор "regex" для поля "title"/,
    ],
    ['an unknown parameter', JSON.stringify({ include: { children: true } }), /include/],
    ['take 10000', JSON.stringify({ take: 10000 }), /take .* от 0 до 500/],
    ['a negative skip', JSON.stringify({ skip: -1 }), /skip/],
    ['a fractional take', JSON.stringify({ take: 1.5 }), /take/],
    [
      'deep relation nesting',
      JSON.stringify({
        select: {
          children: {
            select: { children: { select: { children: { select: { children: { select: { children: true } } } } } } },
          },
        },
      }),
      /вложенность связей/,
    ],
    [
      'deep where nesting',
      JSON.stringify({ where: Array.from({ length: 20 }).reduce((w) => ({ AND: [w] }), { id: 1 }) }),
      /вложенность условий/,
    ],
    ['a string for a number', JSON.stringify({ where: { id: { gt: 'abc' } } }), /"id" .* числом/],
    ['an object for in', JSON.stringify({ where: { id: { in: { a: 1 } } } }), /список/],
    ['contains on a number', JSON.stringify({ where: { id: { contains: '1' } } }), /строковым/],
    ['a bad sort direction', JSON.stringify({ orderBy: { id: 'up' } }), /asc/],
    ['orderBy an unknown field', JSON.stringify({ orderBy: { nope: 'asc' } }), /Неизвестное поле "nope"/],
    ['select with a string', JSON.stringify({ select: { title: 'yes' } }), /true или false/],
    ['a filter on a relation', JSON.stringify({ where: { children: { some: {} } } }), /связи "children"/],
    [
      'a huge query',
      JSON.stringify({ where: { title: { in: Array.from({ length: 3000 }, (_, i) => `t${i}`) } } }),
      /слишком длинный|не более/,
    ],
  ]
  for (const [name, query, message] of cases) {
    it(`answers 400 with a Russian message for ${name}`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/many/structure?${stringifyQuery({ query })}` })
      expect(res.statusCode).toBe(400)
      const body = res.json()
      expect(body.error.code).toBe('invalid_query')
      expect(body.error.message).toMatch(message)
      expect(body.error.message).toMatch(/[а-яА-Я]/)
      expect(res.body).not.toMatch(/SQLITE|sqlite|from "|\.ts:/)
    })
  }

  it('answers 400 for a ttl that is not a number of seconds', async () => {
    const res = await get('/api/many/structure', { ttl: 'soon' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toMatch(/ttl/)
  })

  it('answers 404 for a model that is not in the list', async () => {
    for (const name of ['users', 'siteIndex', 'sliderItem', 'Structure', 'goneUrl']) {
      const res = await get(`/api/many/${name}`)
      expect(res.statusCode, name).toBe(404)
      expect(res.json().error.message).toMatch(/[а-я]/)
    }
  })
})

describe('the read cache', () => {
  it('serves a ttl read from the cache until a content write clears it, and the site changes at once', async () => {
    const query = { where: { urlFull: '/structure/' }, select: { title: true } }
    const first = await get('/api/structure', { query, ttl: 60 })
    expect(first.headers['x-cache']).toBe('MISS')
    const second = await get('/api/structure', { query, ttl: 60 })
    expect(second.headers['x-cache']).toBe('HIT')
    expect(second.json()).toEqual(first.json())

    const id = (
      await get('/api/structure', { query: { where: { urlFull: '/structure/' }, select: { id: true } } })
    ).json().data.id
    const body = multipartBody({ data: JSON.stringify({ id, title: 'Весь каталог' }) })
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/structure',
      payload: body.payload,
      headers: { ...body.headers, ...AUTH },
    })
    expect(patch.statusCode, patch.body).toBe(200)
    const third = await get('/api/structure', { query, ttl: 60 })
    expect(third.headers['x-cache']).toBe('MISS')
    expect(third.json().data.title).toBe('Весь каталог')
  })

  it('sends no-store without ttl and caps a huge ttl', async () => {
    expect((await get('/api/many/orderType')).headers['cache-control']).toBe('no-store')
    expect((await get('/api/many/orderType', { ttl: 999999 })).headers['cache-control']).toMatch(
      /^public, max-age=3600,/,
    )
  })
})
