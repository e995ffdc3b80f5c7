// The back office's search (issue 27): owner only; records of any kind and state by title, артикул in
// any form or the beginning of their URL. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { PRODUCTS, SECTION_URL, writeCatalogue } from './search-helpers'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`GET /api/admin/search on ${dialect.name}`, () => {
    let t: TestApp

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      await writeCatalogue(t)
    })
    afterAll(() => t?.close())

    const search = (q: string, headers: Record<string, string> = AUTH) =>
      t.app.inject({ method: 'GET', url: `/api/admin/search?q=${encodeURIComponent(q)}`, headers })
    const titles = async (q: string) => {
      const res = await search(q)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json().data as { title: string }[]).map((r) => r.title)
    }

    it('answers only the owner', async () => {
      expect((await search('дрель', {})).statusCode).toBe(401)
      expect((await search('дрель', { authorization: 'Bearer wrong-token-wrong-token' })).statusCode).toBe(403)
    })

    it('finds «ЭИ-1003» by «эи1003» and every other form', async () => {
      for (const q of ['эи1003', 'ЭИ-1003', 'эи 1003', 'ЭИ1003']) {
        expect((await titles(q))[0], q).toBe('Углошлифовальная машина 125 мм')
      }
    })

    it('finds records by title words, drafts and sections included', async () => {
      expect(await titles('тайный черновик')).toEqual([PRODUCTS.draft.title])
      expect(await titles('раздел поиска')).toEqual(['Раздел поиска'])
    })

    it('finds records by the beginning of their URL, as a path or a whole address', async () => {
      const byPath = await titles(`${SECTION_URL}bir`)
      expect(byPath).toEqual([PRODUCTS.fridge.title])
      expect(await titles(`https://shop.example.ru${SECTION_URL}zubr`)).toEqual([PRODUCTS.drill.title])
      const res = await search(SECTION_URL)
      const found = res.json().data as { urlFull: string; typeId: string; published: boolean }[]
      expect(found[0]).toMatchObject({ urlFull: SECTION_URL, typeId: 'section', published: true })
      expect(found.length).toBeGreaterThanOrEqual(Object.keys(PRODUCTS).length)
    })

    it('refuses a query over 200 characters or given twice with a Russian 400', async () => {
      const long = await search('я'.repeat(201))
      expect(long.statusCode).toBe(400)
      expect(long.json().error.message).toContain('200 символов')
      const twice = await t.app.inject({ method: 'GET', url: '/api/admin/search?q=a&q=b', headers: AUTH })
      expect(twice.statusCode).toBe(400)
      expect((await search('')).json().data).toEqual([])
    })
  })
}
