// «Скачать прайс-лист» under /api/admin (session or admin token; docs/contract.md §7):
//   GET /price-list.xlsx?…   the catalogue (or the «Товары» filter in the query) as an Excel workbook
//   GET /price-list.csv?…    the same as CSV the way Russian Excel opens it: `;`, UTF-8 with a BOM
// Both streamed (price-export.ts): a page of products at a time, never the whole catalogue in memory.
// A text cell that starts like a formula (an артикул `=HYPERLINK(…)` from 1C) is written defused
// with a leading apostrophe (http/spreadsheet.ts), which the import takes off again; numbers stay
// numbers. The workbook opens as a price list should: the header row frozen and filtered, columns
// as wide as their content wants, and a characteristic that is a plain number («800», «1,5») a
// number cell, which the import reads back as the same text (price-list-file.ts).
import { PassThrough, Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { routeOf } from '../../http/route-path'
import { defuseFormula } from '../../http/spreadsheet'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { exportFilterOf, exportRows } from './price-export'
import { sheetColumns, sheetValue } from './price-sheet'

type Cell = string | number | null

/** A cell of either file: a text defused, a number or an empty cell as it is. */
const safeCell = (value: Cell): Cell => (typeof value === 'string' ? defuseFormula(value) : value)

const csvCell = (value: Cell) => {
  if (value === null) return ''
  // A price with kopecks as Russian Excel reads a number: «1299,9».
  const text = typeof value === 'number' ? String(value).replace('.', ',') : defuseFormula(value)
  return /[;"\r\n\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function download(reply: FastifyReply, type: string, extension: string, body: NodeJS.ReadableStream) {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '')
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="price-list-${day}.${extension}"`)
    .send(body)
}

export async function priceExportRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.priceListCsv), async (request, reply) => {
    requireAdmin(await access(request))
    const filter = exportFilterOf(request.query as Record<string, unknown>)
    const rows = exportRows(app.db, filter)
    async function* lines() {
      yield '\uFEFF'
      for await (const item of rows) {
        const cells = 'columns' in item ? item.columns.header : item.cells
        yield `${cells.map(csvCell).join(';')}\r\n`
      }
    }
    return download(reply, 'text/csv; charset=utf-8', 'csv', Readable.from(lines()))
  })

  app.get(routeOf(app, ADMIN_API_PATHS.priceListXlsx), async (request, reply) => {
    requireAdmin(await access(request))
    const filter = exportFilterOf(request.query as Record<string, unknown>)
    const { default: ExcelJS } = await import('exceljs') // loaded by the first export, not at start
    const out = new PassThrough()
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false })
    const sheet = workbook.addWorksheet('Прайс-лист', { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] })
    void (async () => {
      for await (const item of exportRows(app.db, filter)) {
        if ('columns' in item) {
          // Widths and the filter go before the first row is written.
          const { header } = item.columns
          sheet.columns = sheetColumns(header)
          sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: header.length } }
          sheet.addRow(header.map(safeCell)).commit()
          continue
        }
        // The артикул stays text ("00123" is not 123); prices are numbers Excel can compute with. A
        // string is a text cell (exceljs makes a formula only of a `{ formula }` value), and defused.
        sheet.addRow(item.cells.map((cell, index) => safeCell(sheetValue(cell, index)))).commit()
      }
      sheet.commit()
      await workbook.commit()
    })().catch((error: unknown) => {
      request.log.error({ err: error }, 'price list export failed')
      out.destroy(error as Error)
    })
    return download(reply, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx', out)
  })
}
