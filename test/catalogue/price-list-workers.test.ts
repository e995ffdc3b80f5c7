// A large price list applied by one process while a second process on the same SQLite file takes
// leads, as two PM2 workers do (issue #35): the import writes in short transactions, so every lead
// sent meanwhile is accepted (none waits out SQLite's busy timeout) and the import completes.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { uploadPriceList } from '../helpers/multipart'
import { sendLead, spawnLeadWorker, type LeadWorker } from '../helpers/lead-worker'

const ROWS = 10_000

let t: TestApp
let worker: LeadWorker
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN, LEAD_RATE_LIMIT: '0' })
  worker = await spawnLeadWorker(t.dir, {})
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
})

it('accepts every lead a second process gets while the first applies 10,000 rows', async () => {
  const lines = ['Артикул;Наименование;Цена;Раздел']
  for (let i = 1; i <= ROWS; i++) lines.push(`ВР-${i};Товар ${i};${1000 + i};Станки / Сверлильные`)
  const file = Buffer.from(`${lines.join('\n')}\n`)
  const preview = (await uploadPriceList(t.app, AUTH, file)).json().data
  expect(preview).toMatchObject({ created: ROWS, sections: ['Станки', 'Станки / Сверлильные'] })

  let done = false
  const apply = uploadPriceList(t.app, AUTH, file, preview.confirm).finally(() => {
    done = true
  })
  const leads: { status: number }[] = []
  while (!done) {
    leads.push(await sendLead(worker.url))
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const res = await apply
  expect(res.statusCode).toBe(200)
  expect(res.json().data).toMatchObject({ created: ROWS })
  expect(leads.length).toBeGreaterThan(0)
  expect(leads.filter((lead) => lead.status !== 201)).toEqual([])
  const stored = await t.app.db
    .selectFrom('feedback')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  expect(Number(stored.n)).toBe(leads.length)
}, 120_000)
