// Forward-only: a released migration is never edited, a new file follows it.
// Exact money (issue 44, docs/decisions/040-exact-money.md): prices and old prices are kept as
// whole kopecks instead of whole rubles. Every stored price is multiplied by 100, so it shows as
// before; PostgreSQL's column becomes a bigint (2,147,483,647 ₽ is 214,748,364,700 kopecks, past
// its integer). A 1C file staged before the upgrade keeps its offers' prices in kopecks too.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'
import { kopecksOfRubles } from '../../../src/format/money'

export async function up(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) {
    await sql`ALTER TABLE "product" ALTER COLUMN "price" TYPE bigint, ALTER COLUMN "oldPrice" TYPE bigint`.execute(db)
  }
  await sql`UPDATE "product" SET "price" = "price" * 100, "oldPrice" = "oldPrice" * 100
    WHERE "price" IS NOT NULL OR "oldPrice" IS NOT NULL`.execute(db)
  const staged = await db
    .selectFrom('exchangeStaged')
    .select(['sessionId', 'file', 'kind', 'pos', 'payload'])
    .where('kind', '=', 'offer')
    .execute()
  for (const row of staged) {
    const payload = JSON.stringify(JSON.parse(row.payload), (key, value) =>
      key === 'prices' && Array.isArray(value)
        ? value.map(([type, rubles]: [string, number]) => [type, kopecksOfRubles(rubles) ?? Math.round(rubles * 100)])
        : value,
    )
    await db
      .updateTable('exchangeStaged')
      .set({ payload })
      .where('sessionId', '=', row.sessionId)
      .where('file', '=', row.file)
      .where('kind', '=', row.kind)
      .where('pos', '=', row.pos)
      .execute()
  }
}
