// A record's address is a path on this site (issue #36, item 8): `//evil.example/x`, a backslash,
// a scheme, a dot segment or a control character is a 400 with a Russian field error on create,
// update and the import's batch, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN } from './helpers'

const OFF_SITE = [
  '//evil.example/x',
  '/\\evil.example/x',
  '/a\\b',
  'https://evil.example/x',
  'javascript:alert(1)',
  '/a/../../x',
  '/./x',
  '/x/..',
  '/a b',
]
// Control characters in an address are refused by the single-line check, in its own words
// (test/leads/control-characters.test.ts).

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
})
afterAll(async () => {
  await t?.close()
})

const write = (method: 'POST' | 'PATCH', url: string, data: unknown) => {
  const body = multipartBody({ data: JSON.stringify(data) })
  return t.app.inject({
    method,
    url,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_TOKEN}` },
  })
}
const stored = (urlFull: string) =>
  t.app.db.selectFrom('structure').select('id').where('urlFull', '=', urlFull).executeTakeFirst()

interface Refusal {
  error: { message: string }
  errors?: Record<string, string>
}

describe('a record address is a path on this site', () => {
  it.each(OFF_SITE)('refuses %j on create, update and batch', async (urlFull) => {
    const created = await write('POST', '/api/structure', { typeId: 'page', title: 'Чужой', urlFull })
    expect(created.statusCode).toBe(400)
    expect(created.json<Refusal>().errors?.urlFull).toMatch(/путь на этом сайте/)

    const { id } = await t.app.db
      .selectFrom('structure')
      .select('id')
      .where('urlFull', '=', '/structure/')
      .executeTakeFirstOrThrow()
    const updated = await write('PATCH', '/api/structure', { id, urlFull })
    expect(updated.statusCode).toBe(400)
    expect(updated.json<Refusal>().errors?.urlFull).toMatch(/путь на этом сайте/)

    const batch = await write('POST', '/api/batch/structure', {
      records: [{ typeId: 'page', title: 'Чужой', urlFull }],
    })
    expect(batch.statusCode).toBe(400)
    expect(batch.json<Refusal>().errors?.['records.0.urlFull']).toMatch(/путь на этом сайте/)

    expect(await stored(urlFull)).toBeUndefined()
    expect(await stored('/structure/')).toEqual({ id })
  })

  it('still takes ordinary paths, Cyrillic ones and dots inside a segment', async () => {
    for (const urlFull of ['/o-nas/', '/новости/2024', '/files/readme.v2', '/a..b/']) {
      const created = await write('POST', '/api/structure', { typeId: 'page', title: 'Своя', urlFull })
      expect(created.statusCode, urlFull).toBe(201)
      expect(await stored(urlFull)).toBeDefined()
    }
  })
})
