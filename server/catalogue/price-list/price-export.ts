// «Скачать прайс-лист» (issue 33, docs/decisions/029-price-list-and-feeds.md): today's catalogue as
// a file in exactly the columns the price list's import reads (Артикул, Наименование, Цена, Старая
// цена, Наличие, Раздел, Бренд, then one column per characteristic, «Имя, единица»), so a file
// exported, edited in Excel and uploaded again changes exactly what was edited. XLSX or CSV as
// Russian Excel opens it (`;`, UTF-8 with a BOM). Streamed: the products are read a page at a time
// by id, so the cost in memory does not grow with the catalogue. Products without an артикул are
// left out: the import finds products by it. A product with variants (decision 043) is a row per
// variant, «Модель» its title, Наименование the variant's, its option values in their
// characteristics' columns: the import reads them back as the same product's variants.
import { rublesNumber } from '../../../src/format/money'
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { loadSectionTree } from '../catalogue-sections'
import { productFilter, sectionIds, type ExportFilter } from '../product-table/product-filter'

export { exportFilterOf, type ExportFilter } from '../product-table/product-filter'
import { PRICE_LIST_LIMITS } from './price-list-file'

type Db = Kysely<Database>

const PAGE = 1000

export const EXPORT_AVAILABILITY: Readonly<Record<Availability, string>> = {
  in_stock: 'В наличии',
  on_order: 'Под заказ',
  out_of_stock: 'Нет в наличии',
}

/** The filter's products that have an артикул (what the import finds products by) or variants. */
function conditions(filter: ExportFilter, sections: number[] | null) {
  const chosen = productFilter(filter, sections)
  return (eb: ExpressionBuilder<Database, 'structure' | 'product'>): Expression<SqlBool> =>
    eb.and([
      chosen(eb),
      eb.or([
        eb.and([eb('product.article', 'is not', null), eb('product.article', '<>', '')]),
        eb.exists(
          eb
            .selectFrom('productVariant')
            .select('productVariant.id')
            .whereRef('productVariant.productId', '=', 'structure.id'),
        ),
      ]),
    ])
}

/** The variants of a page's products, in order, each with its option values by column. */
async function pageVariants(db: Db, ids: readonly number[], column: ReadonlyMap<string, number>) {
  const variants = await db
    .selectFrom('productVariant')
    .select(['id', 'productId', 'title', 'article', 'price', 'oldPrice', 'availability'])
    .where('productId', 'in', ids)
    .orderBy('sort')
    .orderBy('id')
    .execute()
  const options = new Map<number, Map<number, string>>()
  if (variants.length > 0) {
    for (const o of await db
      .selectFrom('productProperty')
      .select(['variantId', 'name', 'value', 'unit'])
      .where('structureId', 'in', ids)
      .where('variantId', 'is not', null)
      .orderBy('sort')
      .orderBy('id')
      .execute()) {
      const index = column.get(`${o.name}\u0000${o.unit || ''}`)
      if (index === undefined) continue
      const values = options.get(o.variantId!) ?? new Map<number, string>()
      if (!values.has(index)) values.set(index, o.value)
      options.set(o.variantId!, values)
    }
  }
  const out = new Map<number, ((typeof variants)[number] & { options: Map<number, string> })[]>()
  for (const v of variants) {
    const list = out.get(v.productId) ?? []
    list.push({ ...v, options: options.get(v.id) ?? new Map<number, string>() })
    out.set(v.productId, list)
  }
  return out
}

export interface ExportColumns {
  readonly header: readonly string[]
  /** Characteristics' columns: name and unit, in header order */
  readonly properties: readonly { readonly name: string; readonly unit: string | null }[]
}

/** The rows of the export, a page at a time: each row's cells as the columns say. */
export async function* exportRows(
  db: Db,
  filter: ExportFilter,
): AsyncGenerator<{ columns: ExportColumns } | { cells: (string | number | null)[] }> {
  const sections = await sectionIds(db, filter.section)
  const where = conditions(filter, sections)
  // Characteristics: one column per name and unit, the most used first (the import matches a
  // column to the characteristic of that name in that unit, so a product's own unit survives).
  const used = await db
    .selectFrom('productProperty')
    .innerJoin('structure', 'structure.id', 'productProperty.structureId')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select((eb) => ['productProperty.name', 'productProperty.unit', eb.fn.countAll<number | string>().as('uses')])
    .where(where)
    // A variant's option values are in its characteristics' columns too (decision 043).
    .groupBy(['productProperty.name', 'productProperty.unit'])
    .execute()
  const fixed = ['Артикул', 'Наименование', 'Цена', 'Старая цена', 'Наличие', 'Раздел', 'Бренд', 'Модель']
  const properties = used
    .map((row) => ({ name: row.name, unit: row.unit || null, uses: Number(row.uses) }))
    .sort((a, b) => b.uses - a.uses || a.name.localeCompare(b.name, 'ru'))
    .slice(0, PRICE_LIST_LIMITS.maxColumns - fixed.length)
    .map(({ name, unit }) => ({ name, unit }))
  const header = [...fixed, ...properties.map((p) => (p.unit ? `${p.name}, ${p.unit}` : p.name))]
  yield { columns: { header, properties } }

  // A section by its title when no other section has it, else by its URL: what the import finds.
  const { sections: all } = await loadSectionTree(db)
  const titles = new Map<string, number>()
  for (const s of all) titles.set(s.title.trim().toLowerCase(), (titles.get(s.title.trim().toLowerCase()) ?? 0) + 1)
  const sectionLabel = new Map(
    all.map((s) => [s.id, titles.get(s.title.trim().toLowerCase()) === 1 ? s.title : s.urlFull]),
  )
  const column = new Map(properties.map((p, i) => [`${p.name}\u0000${p.unit ?? ''}`, i]))

  for (let after = 0; ;) {
    const page = await db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .select([
        'structure.id',
        'structure.title',
        'structure.parentId',
        'product.article',
        'product.price',
        'product.oldPrice',
        'product.availability',
        'product.vendor',
      ])
      .where(where)
      .where('structure.id', '>', after)
      .orderBy('structure.id')
      .limit(PAGE)
      .execute()
    if (page.length === 0) return
    const props = await db
      .selectFrom('productProperty')
      .select(['structureId', 'name', 'value', 'unit'])
      .where(
        'structureId',
        'in',
        page.map((p) => p.id),
      )
      .where('variantId', 'is', null)
      .orderBy('sort')
      .orderBy('id')
      .execute()
    const valuesOf = new Map<number, (string | null)[]>()
    for (const p of props) {
      const index = column.get(`${p.name}\u0000${p.unit || ''}`)
      if (index === undefined) continue
      const values = valuesOf.get(p.structureId) ?? new Array<string | null>(properties.length).fill(null)
      values[index] ??= p.value
      valuesOf.set(p.structureId, values)
    }
    const variantsOf = await pageVariants(
      db,
      page.map((p) => p.id),
      column,
    )
    const money = (kopecks: number | null) => (kopecks === null ? null : rublesNumber(kopecks))
    for (const product of page) {
      const own = valuesOf.get(product.id) ?? new Array<string | null>(properties.length).fill(null)
      const section = product.parentId === null ? null : (sectionLabel.get(product.parentId) ?? null)
      const variants = variantsOf.get(product.id)
      if (!variants) {
        const { article, title, price, oldPrice, availability, vendor } = product
        yield {
          cells: [
            article,
            title,
            money(price),
            money(oldPrice),
            EXPORT_AVAILABILITY[availability],
            section,
            vendor,
            null,
            ...own,
          ],
        }
        continue
      }
      for (const v of variants) {
        yield {
          cells: [
            v.article,
            v.title,
            money(v.price),
            money(v.oldPrice),
            EXPORT_AVAILABILITY[v.availability],
            section,
            product.vendor,
            product.title,
            ...own.map((value, i) => v.options.get(i) ?? value),
          ],
        }
      }
    }
    after = page[page.length - 1].id
    // The other requests go first between pages.
    await new Promise((resolve) => setImmediate(resolve))
  }
}
