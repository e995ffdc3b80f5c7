// The content file carries a product's variants and the owner's «Характеристики»
// (docs/decisions/043-variants.md, "In the content export"), on SQLite and PostgreSQL. The demo tool
// box gains a size with its own picture and kopeck prices (1 234,56 ₽, old 1 500,50 ₽) in the
// editor, and the owner renames its option and makes it a filter and hides another characteristic;
// exported and imported into a fresh instance, the product page (each variant chosen), the section's
// filters and the model API show the same, the same file again changes nothing (variants keep
// their ids), a file of version 1 (no variants, their options among the characteristics) leaves the
// variants as they are, and a file with a bad variant or characteristic is refused in Russian with
// nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Characteristic } from '../../src/catalogue/characteristics'
import { formatMoney } from '../../src/format/money'
import { exportContent } from '../../server/tools/content'
import { importContent } from '../../server/tools/content-import'
import type { ContentExport, Record_ } from '../../server/tools/content-format'
import { readToolConfig } from '../../server/tools/tool-config'
import { listen, pageText, type TestApp } from '../helpers/build-test-app'
import { normalisePage, visit } from '../helpers/content-pages'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN, AUTH, pngImage } from './helpers'

const TOOL_BOX = '/structure/hand-tools/tool-box'
const NEW_SIZE = {
  title: '24", 610×300×260 мм',
  article: 'РИ-3006-24',
  price: 1234.56,
  oldPrice: 1500.5,
  availability: 'on_order',
  options: [{ name: 'Размер', value: '24"', unit: null }],
}
const VARIANTS_QUERY = {
  where: { urlFull: { equals: TOOL_BOX } },
  select: {
    properties: { select: { name: true, value: true } },
    variants: {
      select: {
        title: true,
        article: true,
        price: true,
        oldPrice: true,
        availability: true,
        image: true,
        options: { select: { name: true, value: true, unit: true } },
      },
    },
  },
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`variants and characteristics in the content file on ${dialect.name}`, () => {
    let source: TestApp
    let target: TestApp
    let sourceUrl = ''
    let targetUrl = ''
    let data: ContentExport
    const config = (url: string) => readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN })
    const api = async (t: TestApp, query: object, token = true) =>
      t.app.inject({
        url: `/api/structure?query=${encodeURIComponent(JSON.stringify(query))}`,
        headers: token ? AUTH : {},
      })
    const characteristics = async (t: TestApp) =>
      (await t.app.inject({ url: '/api/admin/characteristics', headers: AUTH })).json().data as Characteristic[]
    const choose = async (t: TestApp, name: string, change: Partial<Characteristic>) => {
      const c = (await characteristics(t)).find((row) => row.name === name)!
      const { title, shownUnit, shown, filter, sort } = { ...c, ...change }
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/characteristics/${c.id}`,
        headers: AUTH,
        payload: { title, shownUnit, shown, filter, sort },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    const variantsOf = (t: TestApp) =>
      t.app.db
        .selectFrom('productVariant')
        .innerJoin('structure', 'structure.id', 'productVariant.productId')
        .select(['productVariant.id', 'productVariant.article', 'productVariant.price', 'productVariant.image'])
        .where('structure.urlFull', '=', TOOL_BOX)
        .orderBy('productVariant.sort')
        .execute()

    beforeAll(async () => {
      source = await dialect.build({ ADMIN_TOKEN })
      target = await dialect.build({ ADMIN_TOKEN, SEED_DEMO: 'false' })
      sourceUrl = await listen(source)
      targetUrl = await listen(target)
      const product = await source.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', TOOL_BOX)
        .executeTakeFirstOrThrow()
      const body = multipartBody({ data: JSON.stringify(NEW_SIZE) }, [
        { name: 'image', filename: 'size-24.png', bytes: await pngImage(48, 36, [0, 120, 200]) },
      ])
      const res = await source.app.inject({
        method: 'POST',
        url: `/api/admin/products/${product.id}/variants`,
        headers: { ...AUTH, ...body.headers },
        payload: body.payload,
      })
      expect(res.statusCode, res.body).toBe(201)
      await choose(source, 'Размер', { title: 'Размер ящика', shownUnit: 'дюйм', filter: 'values', sort: 7 })
      await choose(source, 'Крутящий момент', { shown: false })
      data = await exportContent(config(sourceUrl))
    })
    afterAll(async () => {
      await source?.close()
      await target?.close()
    })

    it('exports each variant with its price in rubles and kopecks, and the owner’s choices', () => {
      expect(data.version).toBe(2)
      const box = data.structure.find((r) => r.urlFull === TOOL_BOX)!
      const variants = box.variants as Record_[]
      expect(variants.map((v) => v.article)).toEqual(['РИ-3006-16', 'РИ-3006-19', 'РИ-3006-22', 'РИ-3006-24'])
      expect(variants[3]).toMatchObject({ price: 1234.56, oldPrice: 1500.5, availability: 'on_order' })
      expect(variants[3].options).toEqual([{ name: 'Размер', value: '24"', unit: null }])
      expect(data.images[variants[3].image as string]?.contentType).toBe('image/png')
      // The variants' option values are theirs, not among the product's own characteristics.
      expect((box.properties as Record_[]).map((p) => p.name)).not.toContain('Размер')
      expect(data.characteristics).toContainEqual(
        expect.objectContaining({ name: 'Размер', title: 'Размер ящика', shownUnit: 'дюйм', filter: 'values' }),
      )
    })

    it('imports them into a fresh instance, which shows the same pages, API answers and filters', async () => {
      const result = await importContent(config(targetUrl), data)
      expect(result.records).toBe(data.structure.length)
      expect(result.characteristics?.missing).toBe(0)
      const [a, b] = await Promise.all([api(source, VARIANTS_QUERY), api(target, VARIANTS_QUERY)])
      expect(b.json().data).toEqual(a.json().data)
      expect(b.json().data.variants[3]).toMatchObject({ price: 1234.56, oldPrice: 1500.5 })
      const stored = await variantsOf(target)
      expect(stored[3]).toMatchObject({ article: 'РИ-3006-24', price: 123456 })
      expect((await visit(target, `/media/${stored[3].image!}`)).statusCode).toBe(200)
      // Each page as a visitor sees it, and each variant chosen (its id is each instance's own).
      const sourceIds = (await variantsOf(source)).map((v) => v.id)
      const pages: Array<[string, string]> = [
        ...[TOOL_BOX, '/structure/hand-tools/', '/structure/product', '/structure/power-tools/'].map(
          (url): [string, string] => [url, url],
        ),
        ...stored.map((v, i): [string, string] => [`${TOOL_BOX}?v=${sourceIds[i]}`, `${TOOL_BOX}?v=${v.id}`]),
      ]
      for (const [from, to] of pages) {
        const [x, y] = await Promise.all([visit(source, from), visit(target, to)])
        expect(y.statusCode, to).toBe(x.statusCode)
        expect(normalisePage(y.body), to).toBe(normalisePage(x.body))
      }
      const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')
      const chosen = spaced(pageText((await visit(target, `${TOOL_BOX}?v=${stored[3].id}`)).body))
      expect(chosen).toContain(spaced(formatMoney(123456)))
      expect(chosen).toContain(spaced(formatMoney(150050)))
      expect(pageText((await visit(target, '/structure/hand-tools/')).body)).toContain('Размер ящика')
      expect(pageText((await visit(target, '/structure/product')).body)).not.toContain('Крутящий момент')
      const key = (c: Characteristic) => `${c.source} ${c.name} ${c.unit}`
      const made = new Map((await characteristics(target)).map((c) => [key(c), c]))
      for (const c of await characteristics(source)) {
        const { title, shownUnit, shown, filter, sort } = made.get(key(c))!
        expect({ title, shownUnit, shown, filter, sort }, key(c)).toEqual({
          title: c.title,
          shownUnit: c.shownUnit,
          shown: c.shown,
          filter: c.filter,
          sort: c.sort,
        })
      }
    })

    it('changes nothing when the same file is imported again: the variants keep their ids', async () => {
      const options = () =>
        target.app.db.selectFrom('productProperty').select(['variantId', 'name', 'value']).orderBy('id').execute()
      const [variants, rows] = [await variantsOf(target), await options()]
      const again = await importContent(config(targetUrl), data)
      expect(again.characteristics).toEqual({ changed: 0, missing: 0 })
      expect(await variantsOf(target)).toEqual(variants)
      expect((await options()).length).toBe(rows.length)
    })

    it('imports a file of version 1: the variants stay, their options never become the product’s own', async () => {
      const old = structuredClone(data) as { -readonly [K in keyof ContentExport]: ContentExport[K] }
      old.version = 1
      delete old.characteristics
      for (const record of old.structure) {
        const variants = (record.variants ?? []) as Record_[]
        delete record.variants
        // Version 1 read the options among the characteristics, from the 100,000th place on.
        const properties = record.properties as Record_[]
        for (const [i, v] of variants.entries()) {
          for (const o of v.options as Record_[]) properties.push({ ...o, groupName: null, sort: 100_000 + i * 100 })
        }
      }
      const before = await variantsOf(target)
      await importContent(config(targetUrl), old)
      expect(await variantsOf(target)).toEqual(before)
      const answer = (await api(target, VARIANTS_QUERY)).json().data
      expect(answer.properties.map((p: { name: string }) => p.name)).not.toContain('Размер')
      expect(answer.variants).toHaveLength(4)
    })

    it('refuses a bad variant or characteristic in Russian, with nothing of its batch written', async () => {
      const titles = async () =>
        target.app.db.selectFrom('structure').select(['urlFull', 'title']).orderBy('id').execute()
      const before = { titles: await titles(), variants: await variantsOf(target) }
      // The tool box and the records above it: one batch, checked whole before any is written.
      const lineage = ['/', '/structure/', '/structure/hand-tools/', TOOL_BOX]
      const bad = (change: (box: Record_[], file: ContentExport) => void) => {
        const copy = structuredClone(data)
        const file = { ...copy, structure: copy.structure.filter((r) => lineage.includes(String(r.urlFull))) }
        for (const record of file.structure) record.title = `${String(record.title)} (не записано)`
        change(file.structure.find((r) => r.urlFull === TOOL_BOX)!.variants as Record_[], file)
        return importContent(config(targetUrl), file)
      }
      await expect(bad((v) => (v[3].price = -5))).rejects.toThrow(
        /^Запись 4 \(\/structure\/hand-tools\/tool-box\): Проверьте поля: variants\.3\.price — /,
      )
      await expect(bad((v) => (v[3].price = 1234.567))).rejects.toThrow(/variants\.3\.price — .*2 знаков/)
      await expect(bad((v) => (v[3].oldPrice = 1000))).rejects.toThrow(/Старая цена должна быть больше цены/)
      await expect(bad((v) => (v[3].article = v[0].article))).rejects.toThrow(
        /Артикул «РИ-3006-16» уже есть у варианта 1/,
      )
      await expect(bad((_, file) => ((file.characteristics![0] as { filter: string }).filter = 'всё'))).rejects.toThrow(
        /^Характеристика «.+» в файле: Проверьте характеристику \(filter — Выберите/,
      )
      expect({ titles: await titles(), variants: await variantsOf(target) }).toEqual(before)
    })

    it('keeps the variants of a product that is not public out of the public API', async () => {
      const box = (await api(target, { where: { urlFull: { equals: TOOL_BOX } }, select: { id: true } })).json().data
      const body = multipartBody({ data: JSON.stringify({ id: box.id, published: false }) })
      const res = await target.app.inject({
        method: 'PATCH',
        url: '/api/structure',
        headers: { ...AUTH, ...body.headers },
        payload: body.payload,
      })
      expect(res.statusCode, res.body).toBe(200)
      const many = async (model: string, token: boolean) =>
        (await target.app.inject({ url: `/api/many/${model}`, headers: token ? AUTH : {} })).json().data as unknown[]
      expect(await many('productVariants', false)).toEqual([])
      expect(await many('variantOptions', false)).toEqual([])
      expect(await many('productVariants', true)).toHaveLength(4)
      expect(await many('variantOptions', true)).toHaveLength(4)
    })
  })
}
