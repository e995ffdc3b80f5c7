// Forward-only: a released migration is never edited, a new file follows it.
// The brand as a filter (issue 46 item 2, docs/decisions/042-characteristics-and-filters.md, "The
// brand"): a product's brand is its own column (`product.vendor`: 1C's Изготовитель, the price
// list's «Бренд», the editor's field), not a characteristics row, so the owner's list gains one row
// that stands for it. `source` says where a characteristic's values are read: 'property' (the
// product's characteristics rows, every row so far) or 'vendor' (the product's brand). Its key
// (name '', unit 'vendor') is one no characteristics row carries; the owner names it «Бренд».
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('characteristic')
    .addColumn('source', 'varchar(10)', (c) => c.notNull().defaultTo('property'))
    .execute()
  await sql`INSERT INTO "characteristic" ("name", "unit", "title", "shownUnit", "source")
    VALUES ('', 'vendor', 'Бренд', '', 'vendor')`.execute(db)
}
