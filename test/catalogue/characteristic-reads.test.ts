// How the characteristics of products are read (issue 43, migration 038). Nearly every row of
// `productProperty` is a product's own characteristic (no variant). SQLite keeps no statistics
// unless asked, so it chose an index by its shape: reading a product's characteristics through the
// index on `variantId` meant every characteristic of the catalogue per statement. The same 1C file
// sent again at 110,000 products took over 20 minutes instead of about two. The statement the
// import, «Товары» and the editor run must find a product's rows by the product, and a variant's
// options by the variant; checked in the plan SQLite chooses for the very statement they run.
import { afterEach, describe, expect, it } from 'vitest'
import { loadProperties } from '../../server/catalogue/products/product-row-reads'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { planOf, statementsOf } from '../helpers/sql-plans'

describe('reading characteristics on SQLite', () => {
  let t: TestApp | null = null
  afterEach(async () => {
    await t?.close()
    t = null
  })

  it('finds a product’s own characteristics by the product, never by scanning every one without a variant', async () => {
    t = await buildTestApp({ SEED_DEMO: 'true' })
    const db = t.app.db
    const ids = (await db.selectFrom('product').select('structureId').limit(3).execute()).map((r) => r.structureId)
    expect(ids.length).toBeGreaterThan(0)
    const [query] = await statementsOf(db, (recording) => loadProperties(recording, ids))
    expect(query.sql).toMatch(/"variantId" is null/)
    const plan = await planOf(db, query)
    expect(plan).toMatch(/USING INDEX product_property_structure/)
    expect(plan).not.toMatch(/product_property_variant/)
  })

  it('finds a variant’s options by the variant', async () => {
    t = await buildTestApp({ SEED_DEMO: 'true' })
    const plan = await planOf(
      t.app.db,
      t.app.db.selectFrom('productProperty').select(['id', 'name', 'value']).where('variantId', '=', 1).compile(),
    )
    expect(plan).toMatch(/USING INDEX product_property_variant/)
  })
})
