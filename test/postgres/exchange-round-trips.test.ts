// The 1C exchange's statements per product on PostgreSQL (issue 43, item 3; docs/decisions/032-1c-exchange.md,
// "A step in a few statements"): every statement is a round trip to the server, and a step that
// made each new product alone sent about eight of them per product (a first exchange of 110,000
// products: 393 s, past the six-minute floor). A step now makes its new products, writes their
// changed fields and ties 1C's Ид in a few statements whatever its size. Counted, not timed: the
// count does not depend on the machine.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { upsertProducts, type ProductInput } from '../../server/catalogue/exchange/exchange-products'
import { emptyTally } from '../../server/catalogue/exchange/exchange-records'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'

const STEP = 500
const postgres = DIALECTS.find((d) => d.name === 'PostgreSQL')!

/** The statements `pg` sends while `run` runs. */
async function statements(run: () => Promise<unknown>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const query = proto.query
  let count = 0
  proto.query = function (this: unknown, ...args: unknown[]) {
    count++
    return query.apply(this, args)
  }
  try {
    await run()
  } finally {
    proto.query = query
  }
  return count
}

describe.runIf(postgres.available)('a 1C step’s statements on PostgreSQL', () => {
  let t: TestApp
  let root = 0
  beforeAll(async () => {
    t = await postgres.build({ ADMIN_TOKEN })
    root = (await generateCatalogue(t.app.db, { sections: 1, products: 0, slug: 'one-c' })).sections[0].id
  })
  afterAll(() => t?.close())

  const goods = (title: (i: number) => string): ProductInput[] =>
    Array.from({ length: STEP }, (_, i) => ({
      id: `good-${i}`,
      title: title(i),
      article: `A-${i}`,
      description: `Описание ${i}`,
      vendor: `Бренд ${i % 7}`,
      group: null,
      images: [],
      properties: [{ name: 'Размер', value: String(i % 13) }],
      deleted: false,
    }))
  const step = (products: ProductInput[]) => {
    const tally = emptyTally()
    return { tally, run: () => t.app.writeDoor.write((unit) => upsertProducts(unit, products, root, 1, tally)) }
  }

  it('makes a step of 500 new products in a few dozen statements, not one or more per product', async () => {
    const made = step(goods((i) => `Товар ${i}`))
    const count = await statements(made.run)
    expect(made.tally.productsCreated).toBe(STEP)
    const page = await t.app.inject({ url: '/structure/one-c-1/tovar-7' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Бренд 0')
    // 47 when written; one per product would be 500 more.
    expect(count).toBeLessThan(100)
  })

  it('finds them unchanged, and writes 500 changed brands, in a few dozen statements each', async () => {
    const same = step(goods((i) => `Товар ${i}`))
    expect(await statements(same.run)).toBeLessThan(60)
    expect(same.tally.productsUpdated).toBe(0)
    const renamed = step(goods((i) => `Товар ${i}`).map((p) => ({ ...p, vendor: `${p.vendor} Про` })))
    expect(await statements(renamed.run)).toBeLessThan(100)
    expect(renamed.tally.productsUpdated).toBe(STEP)
    expect((await t.app.inject({ url: '/structure/one-c-1/tovar-7' })).body).toContain('Бренд 0 Про')
  })
})
