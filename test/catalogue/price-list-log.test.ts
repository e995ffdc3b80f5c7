// A price list the site cannot read is refused in Russian (400, «Не удалось прочитать файл Excel…»),
// and the log says why: what the XLSX reader said, so an operator (or a test that failed once) can
// tell a broken sheet from a bug. The owner's answer does not carry the reader's English, and the
// log does not carry the file's cells.
import fs from 'node:fs'
import { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { tempDir, testConfig } from '../helpers/build-test-app'
import { uploadPriceList } from '../helpers/multipart'
import { buildZip, entriesOf } from '../helpers/zip'

interface LogLine {
  msg: string
  code?: string
  status?: number
  cause?: string
}

const lines: LogLine[] = []
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine)
    done()
  },
})

describe('what the log says of a refused request', () => {
  let app: App
  // Made in beforeAll: a run that skips every test here runs neither hook, and left the folder.
  let dir: string | undefined
  beforeAll(async () => {
    dir = tempDir()
    app = await buildApp(testConfig(dir, { LOG_LEVEL: 'info', ADMIN_TOKEN }), { logStream })
  })
  afterAll(async () => {
    await app?.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('is refused in Russian, and the log says what the reader found', async () => {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Прайс')
    sheet.addRow(['Артикул', 'Цена'])
    sheet.addRow(['СЕКРЕТ-777', 100])
    const entries = await entriesOf(Buffer.from(await workbook.xlsx.writeBuffer()))
    // A zip that opens, with a sheet whose XML closes a row it never opened.
    const broken = buildZip(
      entries.map((entry) =>
        entry.name === 'xl/worksheets/sheet1.xml'
          ? { ...entry, data: Buffer.from(entry.data.toString().replace('</row>', '</wor>')) }
          : entry,
      ),
    )
    const before = lines.length
    const res = await uploadPriceList(app, AUTH, broken)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe('Не удалось прочитать файл Excel: сохраните его как .xlsx или CSV')
    const logged = lines.slice(before).find((line) => line.code === 'invalid_price_list')
    expect(logged?.status).toBe(400)
    expect(logged?.cause).toEqual(expect.any(String))
    expect(logged?.cause?.length).toBeGreaterThan(0)
    expect(JSON.stringify(lines.slice(before))).not.toContain('СЕКРЕТ-777')
  })

  it('logs no other refusal’s cause: a lead whose JSON does not parse leaves no phone in the log', async () => {
    const before = lines.length
    const res = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"Иван","phone":"+7 912 555-01-23", oops}',
    })
    expect(res.statusCode).toBe(400)
    expect(lines.length).toBeGreaterThan(before)
    expect(JSON.stringify(lines.slice(before))).not.toContain('555-01-23')
  })
})
