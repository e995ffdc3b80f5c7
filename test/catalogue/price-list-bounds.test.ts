// The price list's bounds, on both databases (issue #35): header cells with control characters, an
// XLSX that unpacks to far more than it weighs (refused by its sizes before it is parsed, the site
// answering meanwhile), a sheet past the row limit, new products named like many existing ones
// (unique URLs, and no more queries for 60 namesakes than for 40), and two applies of previews made
// at the same content version (one goes ahead, the other gets 409, no артикул twice).
import ExcelJS from 'exceljs'
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyPriceList, previewPriceList } from '../../server/catalogue/price-list/price-import'
import { WriteDoor } from '../../server/catalogue/write-door'
import { claimImport } from '../../server/catalogue/import-claim'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody, uploadPriceList } from '../helpers/multipart'
import { buildZip, entriesOf } from '../helpers/zip'

async function xlsxOf(rows: readonly (readonly unknown[])[], at?: { row: number; value: string }): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Прайс')
  for (const row of rows) sheet.addRow([...row])
  if (at) sheet.getRow(at.row).getCell(1).value = at.value
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const csv = (lines: readonly string[]) => Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`)

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the price list's bounds on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    const post = (file: Buffer, confirm?: string) => uploadPriceList(t.app, AUTH, file, confirm)

    it('refuses a header cell with a control character, as it refuses a data cell', async () => {
      const res = await post(csv(['Артикул;Це\u0001на', 'ЭИ-1002;100']))
      expect(res.statusCode).toBe(400)
      expect(res.json().error.message).toContain('Заголовок столбца 2 содержит недопустимые символы')
    })

    it('refuses an XLSX that declares or inflates to far more than its weight, before parsing it', async () => {
      const real = await entriesOf(
        await xlsxOf([
          ['Артикул', 'Цена'],
          ['ЭИ-1002', 100],
        ]),
      )
      const zeros = Buffer.alloc(80 * 1024 * 1024)
      // Declares its 80 MB honestly: refused by the directory, nothing inflated.
      const declared = buildZip([...real, { name: 'xl/media/image1.png', data: zeros }])
      // Declares 1 KB and inflates to 80 MB: refused as it inflates, past the declared size.
      const lying = buildZip([...real, { name: 'xl/media/image1.png', data: zeros, declaredSize: 1024 }])
      for (const file of [declared, lying]) {
        expect(file.length).toBeLessThan(200 * 1024)
        const [res, home] = await Promise.all([post(file), t.app.inject({ url: '/' })])
        expect(res.statusCode).toBe(413)
        expect(res.json().error.message).toContain('распаковывается больше чем в 64 МБ')
        expect(home.statusCode).toBe(200)
      }
      // A file whose sheet has bytes hidden between its entries is not an XLSX to read.
      const hidden = buildZip(real)
      const spliced = Buffer.concat([hidden.subarray(0, 10), hidden])
      expect((await post(spliced)).statusCode).toBe(400)
    })

    it('stops reading a sheet past the row limit', async () => {
      const res = await post(await xlsxOf([['Артикул', 'Цена']], { row: 1_000_000, value: 'ЭИ-1002' }))
      expect(res.statusCode).toBe(400)
      expect(res.json().error.message).toContain('больше 20000 строк')
    })

    it('gives new products named like many others unique URLs, in as many queries for 60 namesakes as for 40', async () => {
      const named = (from: number, count: number) =>
        csv([
          'Артикул;Наименование;Цена;Раздел',
          ...Array.from({ length: count }, (_, i) => `ТЁЗ-${from + i};Дрель тёзка;${100 + i};Садовая техника`),
        ])
      const first = named(0, 40)
      expect((await post(first, (await post(first)).json().data.confirm)).statusCode).toBe(200)

      const counts: number[] = []
      for (const from of [40, 60]) {
        const file = named(from, 20)
        const counter = new StructureSelects()
        const preview = await previewPriceList(t.app.db, file)
        expect(preview.created).toBe(20)
        await applyPriceList(
          new WriteDoor(t.app.db.withPlugin(counter), { indexNowOrigin: null }),
          file,
          preview.confirm,
        )
        counts.push(counter.count)
      }
      expect(counts[1]).toBe(counts[0])

      const urls = await t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select('urlFull')
        .where('article', 'like', 'ТЁЗ-%')
        .execute()
      expect(urls).toHaveLength(80)
      expect(new Set(urls.map((u) => u.urlFull)).size).toBe(80)
      expect(urls.map((u) => u.urlFull)).toContain('/structure/garden/drel-tyozka-80')
    })

    it('lets one of two applies of previews made at the same version go ahead, the other gets 409', async () => {
      const a = csv(['Артикул;Наименование;Цена;Раздел', 'ДУБ-1;Дубль первый;100;Садовая техника'])
      const b = csv(['Артикул;Наименование;Цена;Раздел', 'ДУБ-1;Дубль второй;200;Садовая техника'])
      const [pa, pb] = [(await post(a)).json().data.confirm, (await post(b)).json().data.confirm]
      const results = await Promise.all([post(a, pa), post(b, pb), post(a, pa)])
      const statuses = results.map((r) => r.statusCode).sort()
      expect(statuses).toEqual([200, 409, 409])
      for (const res of results.filter((r) => r.statusCode === 409)) {
        expect(res.json().error.message).toMatch(/изменились после предпросмотра|идёт другой импорт/)
      }
      const rows = await t.app.db.selectFrom('product').select('article').where('article', '=', 'ДУБ-1').execute()
      expect(rows).toHaveLength(1)

      // The same file and confirm once more: 409, not a second product or a 500.
      const again = await post(a, pa)
      expect(again.statusCode).toBe(409)
      expect(
        await t.app.db.selectFrom('product').select('article').where('article', '=', 'ДУБ-1').execute(),
      ).toHaveLength(1)
    })

    it('finishes the job when a file whose apply stopped midway is applied again', async () => {
      const file = csv([
        'Артикул;Наименование;Цена;Раздел',
        ...Array.from({ length: 100 }, (_, i) => `ОБР-${i};Обрыв ${i};${100 + i};Садовая техника`),
      ])
      const preview = await previewPriceList(t.app.db, file)
      expect(preview.created).toBe(100)
      // The process "dies" at its second chunk of new products: the first chunk stays written.
      const failing = new WriteDoor(t.app.db.withPlugin(new FailOnNthInsert('product', 2)), { indexNowOrigin: null })
      await expect(applyPriceList(failing, file, preview.confirm)).rejects.toThrow('disk full')
      const written = await t.app.db.selectFrom('product').select('article').where('article', 'like', 'ОБР-%').execute()
      expect(written.length).toBeGreaterThan(0)
      expect(written.length).toBeLessThan(100)
      // A claim left by a process that died is free once its lease ran out.
      await t.app.db
        .insertInto('importClaim')
        .values({ kind: 'catalogue', holder: 'dead', what: 'price-list', leaseUntil: '2000-01-01T00:00:00.000Z' })
        .onConflict((oc) => oc.column('kind').doUpdateSet({ holder: 'dead', leaseUntil: '2000-01-01T00:00:00.000Z' }))
        .execute()
      const again = (await post(file)).json().data
      expect(again).toMatchObject({ created: 100 - written.length, unchanged: written.length })
      expect((await post(file, again.confirm)).statusCode).toBe(200)
      const all = await t.app.db.selectFrom('product').select('article').where('article', 'like', 'ОБР-%').execute()
      expect(new Set(all.map((p) => p.article)).size).toBe(100)
      expect(all).toHaveLength(100)
    })

    it('holds back the content import while a price list writes, then lets it write', async () => {
      const batch = () => {
        const body = multipartBody({
          data: JSON.stringify({
            records: [{ typeId: 'page', title: 'Страница из импорта', urlFull: '/iz-importa', parentId: 1 }],
          }),
        })
        return t.app.inject({
          method: 'POST',
          url: '/api/batch/structure',
          headers: { ...AUTH, ...body.headers },
          payload: body.payload,
        })
      }
      const claim = await claimImport(t.app.db, 'price-list')
      const held = await batch()
      expect(held.statusCode).toBe(409)
      expect(held.json().error).toMatchObject({ code: 'import_running' })
      expect(held.json().error.message).toContain('идёт другой импорт (прайс-листа)')
      const file = csv(['Артикул;Цена', 'ЭИ-1002;100'])
      const apply = await post(file, (await post(file)).json().data.confirm)
      expect(apply.statusCode).toBe(409)
      await claim.release()
      expect((await batch()).statusCode).toBe(200)
    })
  })
}

/** Fails the nth INSERT into a table, as a full disk would. */
class FailOnNthInsert implements KyselyPlugin {
  private seen = 0
  constructor(
    private readonly table: string,
    private readonly n: number,
  ) {}
  transformQuery(args: { node: RootOperationNode }): RootOperationNode {
    const node = args.node as { kind: string; into?: { table?: { identifier?: { name?: string } } } }
    if (
      node.kind === 'InsertQueryNode' &&
      node.into?.table?.identifier?.name === this.table &&
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

/** Counts the queries that read the structure table. */
class StructureSelects implements KyselyPlugin {
  count = 0
  transformQuery(args: { node: RootOperationNode }): RootOperationNode {
    const node = args.node as {
      kind: string
      from?: { froms?: Array<{ kind: string; table?: { identifier?: { name?: string } } }> }
    }
    if (node.kind === 'SelectQueryNode' && node.from?.froms?.some((f) => f.table?.identifier?.name === 'structure')) {
      this.count++
    }
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}
