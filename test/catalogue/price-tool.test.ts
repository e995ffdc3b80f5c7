// `npm run content -- import-prices <file>` against a running site: the preview printed, nothing
// written; with --apply the accepted rows written.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentMain } from '../../server/tools/content'
import { readToolConfig, UsageError } from '../../server/tools/tool-config'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, collectOutput, listen, type TestApp } from '../helpers/build-test-app'

let t: TestApp
let url: string
let file: string
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
  url = await listen(t)
  file = path.join(t.dir, 'price.csv')
  fs.writeFileSync(file, '\uFEFFАртикул;Цена\r\nРИ-3004;499\r\nРИ-9999;10\r\n')
})
afterAll(async () => {
  await t?.close()
})

const priceOf = async (article: string) =>
  (await t.app.db.selectFrom('product').select('price').where('article', '=', article).executeTakeFirst())?.price

describe('npm run content -- import-prices', () => {
  it('prints the preview and writes nothing without --apply', async () => {
    const { out, text } = collectOutput()
    await contentMain(['import-prices', file], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out)
    expect(text()).toContain('2 rows: 1 to update, 0 to create, 0 unchanged, 1 refused')
    expect(text()).toContain('row 3 (РИ-9999): Товара с таким артикулом нет на сайте')
    expect(text()).toContain('Nothing written')
    expect(await priceOf('РИ-3004')).toBe(45000)
  })

  it('writes the accepted rows with --apply', async () => {
    const { out, text } = collectOutput()
    await contentMain(['import-prices', file, '--apply'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out)
    expect(text()).toContain('Applied: 1 products changed or created.')
    expect(await priceOf('РИ-3004')).toBe(49900)
  })

  it('needs the admin token and one file', async () => {
    const { out } = collectOutput()
    await expect(contentMain(['import-prices', file], readToolConfig({ VITRINA_URL: url }), out)).rejects.toThrow(
      UsageError,
    )
    await expect(
      contentMain(['import-prices'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out),
    ).rejects.toThrow('usage')
  })
})
