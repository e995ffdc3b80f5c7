// The price list's «Модель» column (issue 46 item 3, docs/decisions/043-variants.md), on SQLite and
// PostgreSQL, as the owner and a visitor see it: rows sharing a model become one product whose page
// offers its variants (`?v=` links) with their prices, the characteristics that differ are the
// chooser's options and the shared ones the product's; the same file again changes nothing; a
// model row's new price changes that variant and the product's «от» price; a row of a variant's
// артикул without a model sets that variant; a price on a product with variants is refused, not
// lost; a model's row left out removes its variant; and the export, uploaded again, changes nothing
// and duplicates nothing.
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { pageText, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { uploadPriceList } from '../helpers/multipart'

const HEADER = 'Артикул;Модель;Наименование;Цена;Старая цена;Наличие;Раздел;Цвет;Размер, см;Материал'
const ROWS = [
  'КМ-1;Ковёр Мираж;Ковёр Мираж синий 160×230;5 990;6 990;В наличии;Садовая техника;Синий;160×230;Шерсть',
  'КМ-2;Ковёр Мираж;;8 990;;Под заказ;Садовая техника;Синий;200×300;Шерсть',
  'КМ-3;Ковёр Мираж;Ковёр Мираж;6 490;;;Садовая техника;Красный;160×230;Шерсть',
]
const csv = (...rows: string[]) => Buffer.from([HEADER, ...rows].join('\r\n'))

const text = pageText

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the price list's models on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    const preview = async (file: Buffer) => {
      const res = await uploadPriceList(t.app, AUTH, file)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data
    }
    const apply = async (file: Buffer) => {
      const res = await uploadPriceList(t.app, AUTH, file, (await preview(file)).confirm)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data
    }
    const product = () =>
      t.app.db
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'structure.urlFull', 'product.price', 'product.oldPrice', 'product.availability'])
        .where('structure.title', '=', 'Ковёр Мираж')
        .execute()
    const variants = async (productId: number) =>
      t.app.db
        .selectFrom('productVariant')
        .select(['id', 'title', 'article', 'price', 'oldPrice', 'availability'])
        .where('productId', '=', productId)
        .orderBy('sort')
        .execute()
    const page = (url: string) => t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })

    it('previews a model as one new product with three new variants, in Russian, writing nothing', async () => {
      const data = await preview(csv(...ROWS))
      expect(data).toMatchObject({
        created: 1,
        updated: 0,
        refused: [],
        variants: { created: 3, updated: 0, removed: 0 },
      })
      expect(data.columns).toContainEqual({ header: 'Модель', field: 'model' })
      expect(data.sample).toEqual([
        {
          number: 2,
          article: 'КМ-1',
          title: 'Ковёр Мираж, Ковёр Мираж синий 160×230',
          price: [null, 5990],
          kind: 'create',
        },
        { number: 3, article: 'КМ-2', title: 'Ковёр Мираж, Синий, 200×300', price: [null, 8990], kind: 'create' },
        { number: 4, article: 'КМ-3', title: 'Ковёр Мираж, Красный, 160×230', price: [null, 6490], kind: 'create' },
      ])
      expect(await product()).toEqual([])
    })

    it('applies it: one page offers the variants with their prices, the shared characteristic is the product’s', async () => {
      const result = await apply(csv(...ROWS))
      expect(result).toMatchObject({ created: 1, changed: 1, variants: { created: 3 } })
      const [row] = await product()
      // The product follows its variants: the lowest price, its old price, the best availability.
      expect(row).toMatchObject({ price: 599000, oldPrice: 699000, availability: 'in_stock' })
      const stored = await variants(row.id)
      expect(stored).toMatchObject([
        { title: 'Ковёр Мираж синий 160×230', article: 'КМ-1', price: 599000, oldPrice: 699000 },
        { title: 'Синий, 200×300', article: 'КМ-2', price: 899000, availability: 'on_order' },
        { title: 'Красный, 160×230', article: 'КМ-3', price: 649000, availability: 'in_stock' },
      ])
      const res = await page(row.urlFull)
      expect(res.statusCode).toBe(200)
      for (const v of stored) expect(res.body).toContain(`href="${row.urlFull}?v=${v.id}"`)
      expect(text(res.body)).toContain('от 5 990 ₽')
      // Материал is the same in every row: the product's characteristic; Цвет and Размер are the chooser.
      expect(res.body).toMatch(/<th[^>]*>Материал/)
      expect(res.body).not.toMatch(/<th[^>]*>Цвет/)
      const chosen = text((await page(`${row.urlFull}?v=${stored[1].id}`)).body)
      expect(chosen).toContain('8 990 ₽')
      expect(chosen).toContain('Артикул: КМ-2')
    })

    it('changes nothing when the same file comes again', async () => {
      const data = await preview(csv(...ROWS))
      expect(data).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 1,
        variants: { created: 0, updated: 0, removed: 0 },
      })
      expect(data.sample).toEqual([])
    })

    it("sets a model row's new price on its variant, and the product's «от» follows", async () => {
      const edited = csv(ROWS[0].replace('5 990', '4 990'), ROWS[1], ROWS[2])
      const data = await preview(edited)
      expect(data).toMatchObject({ updated: 1, variants: { created: 0, updated: 1, removed: 0 } })
      expect(data.sample).toEqual([expect.objectContaining({ article: 'КМ-1', price: [5990, 4990], kind: 'update' })])
      await apply(edited)
      const [row] = await product()
      expect(row.price).toBe(499000)
      expect(text((await page(row.urlFull)).body)).toContain('от 4 990 ₽')
    })

    it("sets a variant's price from a row of its артикул without a model, and refuses a price on a product with variants", async () => {
      const file = Buffer.from(['Артикул;Цена', 'КМ-3;3 990', 'РИ-3006;999'].join('\r\n'))
      const data = await preview(file)
      expect(data.refused).toEqual([
        { number: 3, article: 'РИ-3006', reason: expect.stringContaining('У товара есть варианты') },
      ])
      expect(data.variants).toEqual({ created: 0, updated: 1, removed: 0 })
      await apply(file)
      const [row] = await product()
      const stored = await variants(row.id)
      expect(stored.map((v) => v.price)).toEqual([499000, 899000, 399000])
      expect(row.price).toBe(399000)
      expect(stored).toHaveLength(3)
    })

    it('removes the variant a model no longer names, and says so first', async () => {
      const file = csv(
        ROWS[0].replace('5 990', '4 990'),
        ROWS[1].replace('200×300', '160×230').replace('Синий', 'Зелёный'),
      )
      const data = await preview(file)
      expect(data.variants).toEqual({ created: 0, updated: 1, removed: 1 })
      expect(data.removedVariants).toEqual([{ article: 'КМ-3', title: 'Ковёр Мираж, Красный, 160×230' }])
      await apply(file)
      const [row] = await product()
      expect((await variants(row.id)).map((v) => v.title)).toEqual(['Ковёр Мираж синий 160×230', 'Зелёный, 160×230'])
    })

    it('refuses a model whose rows name two brands, with the rows and a Russian reason, and plans no section for it', async () => {
      const file = Buffer.from(
        ['Артикул;Модель;Бренд;Цена;Раздел', 'Н-1;Набор;Альфа;100;Текстиль', 'Н-2;Набор;Бета;200;Текстиль'].join(
          '\r\n',
        ),
      )
      const data = await preview(file)
      expect(data.refused.map((r: { number: number }) => r.number)).toEqual([2, 3])
      expect(data.refused[0].reason).toMatch(/разные бренды/)
      // Its new section is not created for nothing.
      expect(data.sections).toEqual([])
    })

    it('reads a model from an XLSX the owner made, a variant without an артикул named by its options', async () => {
      const workbook = new ExcelJS.Workbook()
      const sheet = workbook.addWorksheet('Прайс')
      sheet.addRow(['Артикул', 'Модель', 'Цена', 'Раздел', 'Цвет'])
      sheet.addRow(['ПЛ-1', 'Плед', 1200, 'Садовая техника', 'Серый'])
      sheet.addRow(['', 'Плед', 1300, 'Садовая техника', 'Бежевый'])
      const file = Buffer.from(await workbook.xlsx.writeBuffer())
      await apply(file)
      const plaid = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('title', '=', 'Плед')
        .executeTakeFirstOrThrow()
      expect(await variants(plaid.id)).toMatchObject([
        { title: 'Серый', article: 'ПЛ-1', price: 120000 },
        { title: 'Бежевый', article: null, price: 130000 },
      ])
      expect(await preview(file)).toMatchObject({ unchanged: 1, variants: { created: 0, updated: 0, removed: 0 } })
    })

    it("makes a plain product a model's by its title in its section, its own артикул one of its variants", async () => {
      const products = (await t.app.db.selectFrom('product').select('structureId').execute()).length
      const file = Buffer.from(
        [
          'Артикул;Модель;Цена;Раздел;Комплектация',
          'СТ-2002;Триммер электрический 1200 Вт;6 490;Садовая техника;Леска',
          'СТ-2002-Н;Триммер электрический 1200 Вт;6 990;Садовая техника;Леска и нож',
        ].join('\r\n'),
      )
      expect(await preview(file)).toMatchObject({ updated: 1, created: 0, refused: [], variants: { created: 2 } })
      await apply(file)
      expect((await t.app.db.selectFrom('product').select('structureId').execute()).length).toBe(products)
      const res = await page('/structure/garden/trimmer')
      expect(text(res.body)).toContain('от 6 490 ₽')
      expect(res.body).toMatch(/href="\/structure\/garden\/trimmer\?v=\d+"[^>]*>[^<]*Леска и нож/)
    })

    it("refuses one product's rows under two models: each would remove the other's variants", async () => {
      const file = csv(ROWS[0], ROWS[1].replace(';Ковёр Мираж;', ';Ковёр Мираж 2;'))
      const data = await preview(file)
      expect(data.refused).toEqual([{ number: 3, article: 'КМ-2', reason: expect.stringContaining('одну модель') }])
      expect(data.variants.removed).toBe(0)
    })
    it('exports each product with variants as a row per variant (with or without an артикул), and the export uploaded again changes nothing', async () => {
      const count = async () => (await t.app.db.selectFrom('product').select('structureId').execute()).length
      const products = await count()
      const variantRows = await t.app.db
        .selectFrom('productVariant')
        .select(['id', 'title', 'price'])
        .orderBy('id')
        .execute()
      const csvFile = (await t.app.inject({ url: '/api/admin/price-list.csv', headers: AUTH })).rawPayload
      const lines = csvFile.toString('utf8').split('\r\n')
      expect(lines[0]).toMatch(/^\uFEFFАртикул;Наименование;Цена;Старая цена;Наличие;Раздел;Бренд;Модель;/)
      expect(lines.filter((l) => l.includes(';Ящик для инструмента;'))).toHaveLength(3)
      expect(lines.filter((l) => l.includes(';Плед;'))).toHaveLength(2)
      expect(lines.find((l) => l.startsWith('РИ-3006-22;'))).toContain(';Ящик для инструмента;')
      for (const file of [
        csvFile,
        (await t.app.inject({ url: '/api/admin/price-list.xlsx', headers: AUTH })).rawPayload,
      ]) {
        const data = await preview(file)
        expect(data).toMatchObject({
          updated: 0,
          created: 0,
          refused: [],
          variants: { created: 0, updated: 0, removed: 0 },
        })
        expect(data.removedVariants).toEqual([])
        await apply(file)
      }
      expect(await count()).toBe(products)
      expect(
        await t.app.db.selectFrom('productVariant').select(['id', 'title', 'price']).orderBy('id').execute(),
      ).toEqual(variantRows)
    })
  })
}
