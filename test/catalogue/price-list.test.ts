// The price list in, on both databases: a Windows-1251 CSV and an XLSX made here, headers in any
// case, a preview that writes nothing and names each refused row, a confirm that writes the rest
// in short transactions, a second run that changes nothing, a failure inside a transaction that
// leaves nothing of it.
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyPriceList, previewPriceList } from '../../server/catalogue/price-list/price-import'
import { WriteDoor } from '../../server/catalogue/write-door'
import { readContentVersion } from '../../server/data/db'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'

const CSV_1251 = [
  'Артикул;Наименование;Цена;Старая цена;Наличие;Раздел;Бренд;Вес, кг',
  'ЭИ-1002;"Шуруповёрт ""Мастер"" 18 В; два АКБ";7 990,00;8 490;В наличии;;Макита;1,6',
  'ЭИ-1003;;5290;;Под заказ;;;',
  ';Без артикула;100;;;;;',
  'ЭИ-1004;;двести;;;;;',
  'ЭИ-1003;;5300;;;;;',
  'НОВ-1;Ножницы садовые;1 250,50;;;Садовая техника;Gardena;0,3',
  'НОВ-2;Дрель ударная;500;;;Электроинструмент / Дрели;;',
  'НОВ-3;;500;;;Садовая техника;;',
  'НОВ-4;Станок токарный;90 000;;;Станки / Токарные;;',
  'НОВ-5;Станок токарный;95 000;;;станки/ токарные ;;',
].join('\r\n')

function upload(file: Buffer, name: string, confirm?: string) {
  return multipartBody(confirm ? { confirm } : {}, [
    { name: 'file', filename: name, contentType: 'application/octet-stream', bytes: file },
  ])
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the price list on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    async function post(path: 'preview' | 'apply', file: Buffer, name = 'price.csv', confirm?: string) {
      const body = upload(file, name, confirm)
      return t.app.inject({
        method: 'POST',
        url: `/api/admin/price-list/${path}`,
        headers: { ...AUTH, ...body.headers },
        payload: body.payload,
      })
    }

    async function priceOf(article: string) {
      return t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select(['price', 'oldPrice', 'availability', 'vendor', 'title', 'urlFull', 'structureId'])
        .where('article', '=', article)
        .executeTakeFirst()
    }

    it('previews a Windows-1251 CSV with decimal commas and quotes, names every refused row, and writes nothing', async () => {
      const version = await readContentVersion(t.app.db)
      const res = await post('preview', iconv.encode(CSV_1251, 'win1251'))
      expect(res.statusCode).toBe(200)
      const preview = res.json().data
      expect(preview).toMatchObject({
        format: 'csv',
        encoding: 'windows-1251',
        rows: 10,
        updated: 2,
        created: 4,
        unchanged: 0,
      })
      // The sections the new products name that do not exist yet, before anything is written.
      expect(preview.sections).toEqual(['Электроинструмент / Дрели', 'Станки', 'Станки / Токарные'])
      expect(preview.refused).toEqual([
        { number: 4, article: null, reason: 'Не указан артикул' },
        { number: 5, article: 'ЭИ-1004', reason: 'Цена: «двести» — не число' },
        { number: 6, article: 'ЭИ-1003', reason: 'Артикул уже был в строке 3' },
        { number: 9, article: 'НОВ-3', reason: expect.stringContaining('нужно наименование') },
      ])
      expect(await readContentVersion(t.app.db)).toBe(version)
      const sections = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('title', 'in', ['Дрели', 'Станки'])
        .execute()
      expect(sections).toEqual([])
      expect((await priceOf('ЭИ-1002'))?.price).toBe(749000)
      expect(await priceOf('НОВ-1')).toBeUndefined()
    })

    it('applies the accepted rows on confirm, and the site shows the new price at once', async () => {
      const before = await t.app.inject({ url: '/structure/power-tools/screwdriver' })
      expect(before.body).toMatch(/7[\s\u00a0\u202f]?490/)
      const file = iconv.encode(CSV_1251, 'win1251')
      const { confirm } = (await post('preview', file)).json().data
      const res = await post('apply', file, 'price.csv', confirm)
      expect(res.statusCode).toBe(200)
      expect(res.json().data).toMatchObject({ updated: 2, created: 4, changed: 6 })

      expect(await priceOf('ЭИ-1002')).toMatchObject({
        price: 799000,
        oldPrice: 849000,
        availability: 'in_stock',
        vendor: 'Макита',
        title: 'Шуруповёрт "Мастер" 18 В; два АКБ',
      })
      expect(await priceOf('ЭИ-1003')).toMatchObject({ price: 529000, availability: 'on_order', oldPrice: null })
      const created = await priceOf('НОВ-1')
      // «1 250,50» to the kopeck
      expect(created).toMatchObject({ price: 125050, vendor: 'Gardena', title: 'Ножницы садовые' })
      expect(created!.urlFull).toMatch(/^\/structure\/[a-z-]+\/nozhnicy-sadovye$/)
      const weight = await t.app.db
        .selectFrom('productProperty')
        .select(['name', 'value', 'unit'])
        .where('structureId', '=', created!.structureId)
        .execute()
      expect(weight).toEqual([{ name: 'Вес', value: '0,3', unit: 'кг' }])

      const after = await t.app.inject({ url: '/structure/power-tools/screwdriver' })
      expect(after.body).toMatch(/7[\s\u00a0\u202f]?990/)
      expect((await t.app.inject({ url: created!.urlFull })).statusCode).toBe(200)

      // The sections a path names: nested, published, with transliterated URLs, shared by the rows.
      const drill = await priceOf('НОВ-2')
      expect(drill!.urlFull).toBe('/structure/power-tools/dreli/drel-udarnaya')
      const lathes = [await priceOf('НОВ-4'), await priceOf('НОВ-5')]
      expect(lathes.map((p) => p!.urlFull)).toEqual([
        '/structure/stanki/tokarnye/stanok-tokarnyy',
        '/structure/stanki/tokarnye/stanok-tokarnyy-2',
      ])
      for (const url of ['/structure/power-tools/dreli/', '/structure/stanki/', '/structure/stanki/tokarnye/']) {
        const page = await t.app.inject({ url })
        expect(page.statusCode, url).toBe(200)
      }
      const section = await t.app.inject({ url: '/structure/stanki/tokarnye/' })
      expect(section.body).toContain('Станок токарный')
      const nested = await t.app.db
        .selectFrom('structure as child')
        .innerJoin('structure as parent', 'parent.id', 'child.parentId')
        .select(['child.typeId', 'child.published', 'parent.urlFull as parentUrl'])
        .where('child.urlFull', '=', '/structure/stanki/tokarnye/')
        .executeTakeFirstOrThrow()
      expect(nested).toEqual({ typeId: 'section', published: 1, parentUrl: '/structure/stanki/' })
    })

    it('changes nothing when the same file runs again', async () => {
      const file = iconv.encode(CSV_1251, 'win1251')
      const preview = (await post('preview', file)).json().data
      expect(preview).toMatchObject({ updated: 0, created: 0, unchanged: 6, sections: [] })
      const version = await readContentVersion(t.app.db)
      const res = await post('apply', file, 'price.csv', preview.confirm)
      expect(res.json().data).toMatchObject({ updated: 0, created: 0, changed: 0 })
      expect(await readContentVersion(t.app.db)).toBe(version)
    })

    it('reads an XLSX and a UTF-8 CSV with a BOM, matching headers whatever their case and spaces', async () => {
      const workbook = new ExcelJS.Workbook()
      const sheet = workbook.addWorksheet('Прайс')
      sheet.addRow(['  АРТИКУЛ ', 'цена', 'НАЛИЧИЕ', 'Мощность (Вт)'])
      sheet.addRow(['ЭИ-1004', 10490.4, 'нет в наличии', 1400])
      sheet.addRow([1005, 4500, 3, ''])
      const xlsx = Buffer.from(await workbook.xlsx.writeBuffer())
      const preview = (await post('preview', xlsx, 'price.xlsx')).json().data
      expect(preview).toMatchObject({ format: 'xlsx', updated: 1, created: 0 })
      expect(preview.columns).toEqual([
        { header: 'АРТИКУЛ', field: 'article' },
        { header: 'цена', field: 'price' },
        { header: 'НАЛИЧИЕ', field: 'availability' },
        { header: 'Мощность (Вт)', field: 'property' },
      ])
      expect(preview.refused).toEqual([
        { number: 3, article: '1005', reason: expect.stringContaining('нужно наименование') },
      ])
      await post('apply', xlsx, 'price.xlsx', preview.confirm)
      expect(await priceOf('ЭИ-1004')).toMatchObject({ price: 1049040, availability: 'out_of_stock' })

      const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('артикул;ЦЕНА\nЭИ-1005;"4 400"\n')])
      const csv = (await post('preview', bom)).json().data
      expect(csv).toMatchObject({ encoding: 'utf-8', updated: 1, refused: [] })
    })

    it('refuses a confirm the catalogue has moved past, and writes nothing', async () => {
      const file = Buffer.from('Артикул;Цена\nЭИ-1006;1\n')
      const { confirm } = (await post('preview', file)).json().data
      await post(
        'apply',
        Buffer.from('Артикул;Цена\nЭИ-1007;2\n'),
        'other.csv',
        (await post('preview', Buffer.from('Артикул;Цена\nЭИ-1007;2\n'))).json().data.confirm,
      )
      const res = await post('apply', file, 'price.csv', confirm)
      expect(res.statusCode).toBe(409)
      expect(res.json().error.message).toContain('изменились после предпросмотра')
      expect((await priceOf('ЭИ-1006'))?.price).toBe(1149000)
    })

    it('leaves nothing of a transaction written when the database fails in its middle', async () => {
      // The chunk's records were stamped, then its products' update fails: none of it stays.
      const failing = t.app.db.withPlugin(new FailOnNthProductUpdate(1))
      const file = Buffer.from('Артикул;Цена\nРИ-3001;1\nРИ-3002;2\nРИ-3003;3\n')
      const preview = await previewPriceList(t.app.db, file)
      expect(preview.updated).toBe(3)
      await expect(
        applyPriceList(new WriteDoor(failing, { indexNowOrigin: null }), file, preview.confirm),
      ).rejects.toThrow('disk full')
      expect((await priceOf('РИ-3001'))?.price).toBe(69000)
      expect((await priceOf('РИ-3002'))?.price).toBe(289000)
      // Nothing was written, and the failed apply let go of its claim: the same confirm still works.
      const again = await applyPriceList(t.app.writeDoor, file, preview.confirm)
      expect(again).toMatchObject({ updated: 3 })
      expect((await priceOf('РИ-3002'))?.price).toBe(200)
    })

    it('refuses files it cannot use with a Russian reason, and strangers', async () => {
      const noArticle = await post('preview', Buffer.from('Наименование;Цена\nДрель;100\n'))
      expect(noArticle.statusCode).toBe(400)
      expect(noArticle.json().error.message).toContain('нет столбца «Артикул»')
      const empty = await post('preview', Buffer.alloc(0))
      expect(empty.statusCode).toBe(400)
      const brokenXlsx = await post('preview', Buffer.from('PK\u0003\u0004garbage'), 'x.xlsx')
      expect(brokenXlsx.statusCode).toBe(400)
      expect(brokenXlsx.json().error.message).toContain('Excel')
      const huge = await post('preview', Buffer.alloc(11 * 1024 * 1024, 0x41))
      expect(huge.statusCode).toBe(413)
      expect(huge.json().error.message).toContain('больше 10 МБ')
      const body = upload(Buffer.from('Артикул\n1\n'), 'a.csv')
      const stranger = await t.app.inject({
        method: 'POST',
        url: '/api/admin/price-list/preview',
        headers: body.headers,
        payload: body.payload,
      })
      expect(stranger.statusCode).toBe(401)
    })
  })
}

/** Fails the nth UPDATE of the product table, as a full disk would. */
class FailOnNthProductUpdate implements KyselyPlugin {
  private seen = 0
  constructor(private readonly n: number) {}
  transformQuery(args: { node: RootOperationNode }): RootOperationNode {
    const node = args.node as { kind: string; table?: { table?: { identifier?: { name?: string } } } }
    if (
      node.kind === 'UpdateQueryNode' &&
      node.table?.table?.identifier?.name === 'product' &&
      ++this.seen === this.n
    ) {
      throw new Error('disk full')
    }
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}
