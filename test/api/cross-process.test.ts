// Two processes on one database, as PM2 runs them: a content write taken by one is seen by the
// other within about a second (route map, menu and cached API answers), with no restart.
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { apiRoutes } from '../../server/api-routes'
import { dbPlugin } from '../../server/data/db-plugin'
import { contentPlugin } from '../../server/site/content-plugin'
import { settingsPlugin } from '../../server/settings/settings-plugin'
import { writeDoorPlugin } from '../../server/catalogue/write-door'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, AUTH } from './helpers'
import { multipartBody } from '../helpers/multipart'

let a: TestApp
let b: FastifyInstance
// The other worker's clock: its content version check looks again once a second of it has passed.
let clock = Date.now()

beforeAll(async () => {
  a = await buildTestApp({ ADMIN_TOKEN })
  // The other worker: the same database and API, no pages (one Vike dev server per process).
  b = Fastify()
  await b.register(dbPlugin, { config: a.config })
  await b.register(writeDoorPlugin, { config: a.config })
  await b.register(settingsPlugin, { config: a.config })
  await b.register(contentPlugin, { config: a.config, now: () => new Date(clock) })
  await b.register(apiRoutes, { prefix: '/api', config: a.config })
  await b.ready()
})
afterAll(async () => {
  await b?.close()
  await a?.close()
})

const SECTIONS = {
  select: { title: true },
  where: { typeId: 'section', parentId: { not: null } },
  orderBy: { sort: 'asc' },
}

it('sees another process’s write within a second, in its menu and its cached API answers', async () => {
  const url = `/api/many/structure?${stringifyQuery({ query: SECTIONS, ttl: 600 })}`
  const first = await b.inject({ url })
  expect(first.json().data.map((s: { title: string }) => s.title)).toContain('Садовая техника')
  expect((await b.inject({ url })).headers['x-cache']).toBe('HIT')
  expect((await b.content.getSite('/'))?.menu.map((m) => m.title)).toContain('Садовая техника')

  const garden = await a.app.db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', '=', '/structure/garden/')
    .executeTakeFirstOrThrow()
  const body = multipartBody({ data: JSON.stringify({ id: garden.id, title: 'Сад и огород' }) })
  const patch = await a.app.inject({
    method: 'PATCH',
    url: '/api/structure',
    payload: body.payload,
    headers: { ...body.headers, ...AUTH },
  })
  expect(patch.statusCode).toBe(200)

  clock += 1100
  const after = await b.inject({ url })
  expect(after.headers['x-cache']).toBe('MISS')
  expect(after.json().data.map((s: { title: string }) => s.title)).toContain('Сад и огород')
  expect((await b.content.getSite('/'))?.menu.map((m) => m.title)).toContain('Сад и огород')
})
