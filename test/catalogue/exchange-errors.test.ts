// What 1C reads when a call fails outside the protocol's own answers (issue 43, leftovers), on SQLite
// and PostgreSQL: the exchange's errors go through the shared error handler in the protocol's format,
// plain text `failure` and a Russian reason. A request the framework refuses says so; a failure of
// the server (here its session table gone) is a 500 with the reason to retry and nothing else: no
// stack, no SQL, no name of a table.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { enableExchange, EXCHANGE_ENV, OneCClient, injectTransport } from '../helpers/one-c'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the 1C exchange's failures on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV })
      await enableExchange(t.app, { priceType: '', oldPriceType: '' })
    })
    afterAll(async () => {
      await t?.close()
    })

    it('answers a request the framework refuses with `failure` and the protocol’s reason', async () => {
      const one = new OneCClient(injectTransport(t.app))
      await one.checkauth()
      const res = await t.app.inject({
        method: 'POST',
        url: '/1c/exchange?type=catalog&mode=file&filename=import.xml',
        headers: { cookie: one.cookie!, 'content-type': 'application/octet-stream', 'content-length': '10' },
        payload: Buffer.from('<?xml'),
      })
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toBe('failure\nНеверный запрос обмена\n')
    })

    it('answers a failure of the server with 500, a reason to retry and no detail', async () => {
      const one = new OneCClient(injectTransport(t.app))
      await sql`alter table ${sql.table('exchangeSession')} rename to ${sql.table('exchangeSessionAway')}`.execute(
        t.app.db,
      )
      try {
        const answer = await one.checkauth()
        expect(answer.status).toBe(500)
        expect(answer.body).toBe('failure\nОшибка сервера: обмен не выполнен, повторите позже\n')
      } finally {
        await sql`alter table ${sql.table('exchangeSessionAway')} rename to ${sql.table('exchangeSession')}`.execute(
          t.app.db,
        )
      }
      // Back, the exchange goes on.
      expect((await one.checkauth()).lines[0]).toBe('success')
    })
  })
}
