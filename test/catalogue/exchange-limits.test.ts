// The 1C exchange's limits as the contract promises them (issue 43, item 4 and its contract tests),
// on SQLite and PostgreSQL: an archive whose entry inflates past a zip bomb's ratio is refused while
// inflating, naming the entry, with nothing of it stored and the database not grown by it; the open
// sessions are bounded (the least recently used goes, its unfinished run marked failed); 413 past
// file_limit, 404 while the exchange is unset, 403 while it is off, 429 on checkauth past the failed
// credentials' limit, and a session that expires a day after its last call.
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXCHANGE_LIMITS } from '../../server/catalogue/exchange/exchange-files'
import { ABANDONED } from '../../server/catalogue/exchange/exchange-sessions'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import {
  enableExchange,
  EXCHANGE_ENV,
  LOGIN,
  OneCClient,
  importXml,
  injectTransport,
  offersXml,
} from '../helpers/one-c'
import { buildZip, deflatedZeros } from '../helpers/zip'

const HOUR = 60 * 60 * 1000

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the 1C exchange's limits on ${dialect.name}`, () => {
    let t: TestApp
    let clock = new Date('2026-11-28T10:00:00Z')
    const client = () => new OneCClient(injectTransport(t.app))

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1, now: () => clock })
      await enableExchange(t.app, { priceType: '', oldPriceType: '' })
    })
    afterAll(async () => {
      await t?.close()
    })

    /** What the exchange's files take in the database: the SQLite file, or the table on PostgreSQL. */
    const storedSize = async () => {
      if (dialect.name === 'SQLite') {
        const file = path.join(t.dir, 'site.db')
        return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0)
      }
      const { rows } = await sql<{ size: string }>`select pg_total_relation_size('"exchangeFile"') as size`.execute(
        t.app.db,
      )
      return Number(rows[0].size)
    }
    const mediaSize = () => {
      const dir = path.join(t.dir, 'media')
      if (!fs.existsSync(dir)) return 0
      return (fs.readdirSync(dir, { recursive: true }) as string[])
        .map((f) => fs.statSync(path.join(dir, f)))
        .reduce((sum, s) => sum + (s.isFile() ? s.size : 0), 0)
    }

    it('refuses an archive whose entry inflates like a zip bomb, naming it, with nothing of it stored', async () => {
      const size = 120 * 1024 * 1024
      const zeros = await deflatedZeros(size)
      const archive = buildZip([
        { name: 'import.xml', data: importXml({ products: [{ id: 'bomb-1', name: 'Товар из архива' }] }) },
        { name: 'import_files/ab/zeros.jpg', data: Buffer.alloc(0), deflated: zeros },
      ])
      expect(archive.length).toBeLessThan(200 * 1024)
      const one = client()
      await one.checkauth()
      await one.init()
      expect((await one.sendFile('exchange.zip', archive)).lines[0]).toBe('success')
      const [dbBefore, mediaBefore] = [await storedSize(), mediaSize()]

      const answer = await one.importFile('import.xml')
      expect(answer.status).toBe(422)
      expect(answer.lines[0]).toBe('failure')
      expect(answer.lines[1]).toContain('import_files/ab/zeros.jpg')
      expect(answer.lines[1]).toMatch(/zip-бомб/)
      expect(await t.app.db.selectFrom('exchangeFile').select('name').execute()).toEqual([])
      expect(
        await t.app.db.selectFrom('exchangeRecord').selectAll().where('externalId', '=', 'bomb-1').execute(),
      ).toEqual([])
      expect((await storedSize()) - dbBefore).toBeLessThan(size / 20)
      expect(mediaSize() - mediaBefore).toBeLessThan(size / 20)
    })

    it('refuses an entry that declares more than one file may be before inflating it', async () => {
      const one = client()
      await one.checkauth()
      await one.init()
      const archive = buildZip([
        { name: 'import.xml', data: Buffer.alloc(1000, 0x20), declaredSize: EXCHANGE_LIMITS.fileBytes + 1 },
      ])
      await one.sendFile('exchange.zip', archive)
      const answer = await one.importFile('import.xml')
      expect(answer.lines[0]).toBe('failure')
      expect(answer.lines[1]).toMatch(/exchange\.zip: файл import\.xml распаковывается больше чем в 256 МБ/)
    })

    it('keeps at most `sessions` open: the least recently used goes and its unfinished run is marked failed', async () => {
      clock = new Date(clock.getTime() + HOUR)
      const first = client()
      await first.checkauth()
      await first.init()
      // 1C sent two files and imported one, then stopped calling.
      await first.sendFile('import.xml', importXml({ products: [{ id: 'left-1', name: 'Брошенный обмен' }] }))
      await first.sendFile('offers.xml', offersXml({ offers: [{ id: 'left-1', quantity: 1 }] }))
      expect((await first.importFile('import.xml')).lines[0]).toBe('success')
      const { runId } = await t.app.db
        .selectFrom('exchangeSession')
        .select('runId')
        .where('runId', 'is not', null)
        .orderBy('createdAt', 'desc')
        .executeTakeFirstOrThrow()
      // A session in use stays: its calls move its expiry on.
      const busy = client()
      await busy.checkauth()
      const later: OneCClient[] = []
      for (let i = 0; i < EXCHANGE_LIMITS.sessions; i++) {
        clock = new Date(clock.getTime() + 2 * 60_000)
        expect((await busy.init()).lines[0]).toBe('zip=yes')
        const next = client()
        expect((await next.checkauth()).lines[0]).toBe('success')
        later.push(next)
      }
      const open = await t.app.db.selectFrom('exchangeSession').select('id').execute()
      expect(open.length).toBeLessThanOrEqual(EXCHANGE_LIMITS.sessions)
      const gone = await first.init()
      expect(gone.status).toBe(401)
      expect(gone.lines).toEqual(['failure', expect.stringMatching(/checkauth/)])
      expect((await busy.init()).lines[0]).toBe('zip=yes')
      expect((await later.at(-1)!.init()).lines[0]).toBe('zip=yes')
      const run = await t.app.db
        .selectFrom('exchangeRun')
        .selectAll()
        .where('id', '=', runId!)
        .executeTakeFirstOrThrow()
      expect(run.status).toBe('failure')
      expect(run.message).toMatch(/1С перестала обращаться/)
    })

    it('marks a run failed, never success, when 1C starts over or stops calling', async () => {
      const half = async () => {
        const one = client()
        await one.checkauth()
        await one.init()
        await one.sendFile('import.xml', importXml({ products: [{ id: 'half-1', name: 'Половина обмена' }] }))
        await one.sendFile('offers.xml', offersXml({ offers: [{ id: 'half-1', quantity: 1 }] }))
        expect((await one.importFile('import.xml')).lines[0]).toBe('success')
        return one
      }
      const last = () => t.app.db.selectFrom('exchangeRun').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
      // 1C starts the exchange over in the same session.
      const again = await half()
      const started = await last()
      await again.init()
      expect(await last()).toMatchObject({ id: started.id, status: 'failure', message: ABANDONED })
      // 1C stops calling: once the session has expired the owner sees the run failed, before any sweep.
      await half()
      clock = new Date(clock.getTime() + 24 * HOUR + 2 * 60_000)
      const ready = await t.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(ready.json().exchange1c).toMatchObject({ status: 'failure', message: ABANDONED })
      expect((await last()).status).toBe('running')
      await client().checkauth()
      expect(await last()).toMatchObject({ status: 'failure', message: ABANDONED })
    })

    it('expires a session a day after its last call', async () => {
      const one = client()
      await one.checkauth()
      clock = new Date(clock.getTime() + 23 * HOUR)
      expect((await one.init()).lines[0]).toBe('zip=yes')
      clock = new Date(clock.getTime() + 23 * HOUR)
      expect((await one.init()).lines[0]).toBe('zip=yes')
      clock = new Date(clock.getTime() + 24 * HOUR + 60_000)
      const expired = await one.init()
      expect(expired.status).toBe(401)
      expect(expired.lines).toEqual(['failure', 'Сеанс обмена не найден или истёк: начните обмен заново (checkauth)'])
    })

    it('answers 413 for a part past file_limit', async () => {
      const one = client()
      await one.checkauth()
      await one.init()
      expect(one.fileLimit).toBe(EXCHANGE_LIMITS.fileLimit)
      for (const size of [one.fileLimit + 1, EXCHANGE_LIMITS.bodyLimit + 1]) {
        const answer = await one.call('type=catalog&mode=file&filename=import.xml', Buffer.alloc(size, 0x20))
        expect(answer.status, String(size)).toBe(413)
        expect(answer.lines).toEqual(['failure', expect.stringMatching(/больше file_limit/)])
      }
      expect(await t.app.db.selectFrom('exchangeFile').select('name').execute()).toEqual([])
    })

    it('answers 429 to checkauth past the failed credentials’ limit, the right password too', async () => {
      const from = (password: string) =>
        t.app.inject({
          url: '/1c/exchange?type=catalog&mode=checkauth',
          remoteAddress: '10.43.0.4',
          headers: { authorization: `Basic ${Buffer.from(`${LOGIN}:${password}`).toString('base64')}` },
        })
      for (let i = 0; i < 5; i++) expect((await from('guess')).statusCode).toBe(401)
      for (const password of ['guess', EXCHANGE_ENV.EXCHANGE_1C_PASSWORD]) {
        const res = await from(password)
        expect(res.statusCode).toBe(429)
        expect(res.body).toBe('failure\nСлишком много попыток входа. Попробуйте через минуту.\n')
        // As on every way in (docs/contract.md §3, 429): when to try again.
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      }
    })

    it('answers 403 while «Обмен с 1С» is off', async () => {
      const one = client()
      await one.checkauth()
      const set = (enabled: boolean) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/exchange',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          payload: { enabled, priceType: '', oldPriceType: '', zeroStock: 'out_of_stock' },
        })
      expect((await set(false)).statusCode).toBe(200)
      try {
        for (const answer of [await client().checkauth(), await one.init()]) {
          expect(answer.status).toBe(403)
          expect(answer.lines).toEqual(['failure', 'Обмен с 1С выключен в админке сайта'])
        }
      } finally {
        await set(true)
      }
    })
  })

  describe.runIf(dialect.available)(`the 1C exchange unset on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    it('answers 404 while EXCHANGE_1C_LOGIN and EXCHANGE_1C_PASSWORD are unset', async () => {
      const answer = await new OneCClient(injectTransport(t.app)).checkauth()
      expect(answer.status).toBe(404)
      expect(answer.lines).toEqual(['failure', expect.stringMatching(/EXCHANGE_1C_LOGIN и EXCHANGE_1C_PASSWORD/)])
    })
  })
}
