// A section's filters by characteristic and their counts (issue 46 item 2,
// docs/decisions/042-characteristics-and-filters.md): for each characteristic the owner made a
// filter (at most MAX_FACETS), the values the section's public products hold under the other
// filters, with how many products hold each (the commonest MAX_FACET_VALUES), or the lowest and
// highest number for a range. One grouped query for the characteristics not filtered yet, and one
// more per characteristic that is (its counts leave its own filter out): each reads the section's
// products through the (parentId, sort) index and their rows through the facet index
// (characteristic, product), so the cost grows with the section, never with the catalogue.
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { preparedQuery, slot } from '../../data/prepared'
import { characteristicShape, listValues, sectionProducts } from './listing-store'
import type { SectionFacet, SectionQuery } from '../../../src/site/section-query'
import type { FilterCharacteristic } from '../characteristics/characteristic-store'

type Queryable = Kysely<Database> | Transaction<Database>

/** Values shown of each filter at most */
export const MAX_FACET_VALUES = 20

interface FacetRow {
  c: number
  value: string | null
  n: number | string | bigint
  lo: number | null
  hi: number | null
}

/**
 * Shape: the filters' shape (as the listing's, without the order) `#` how many characteristics
 * are counted by value and how many by range; slots `ev<i>` and `er<i>` name them.
 */
const facetQuery = preparedQuery<FacetRow, Record<string, unknown>>((db, shape) => {
  const [filters, counted] = shape.split('#')
  const [values, ranges] = counted.split(',').map(Number)
  const valueIds = Array.from({ length: values }, (_, i) => slot<number>(`ev${i}`))
  const rangeIds = Array.from({ length: ranges }, (_, i) => slot<number>(`er${i}`))
  const ref = sql.ref('pp.characteristicId')
  // A range's rows count as one group: its bounds, not its values.
  const value =
    ranges === 0
      ? sql.ref('pp.value')
      : sql`case when ${ref} in (${sql.join(rangeIds)}) then null else ${sql.ref('pp.value')} end`
  // A cross join keeps SQLite's planner to this order: the section's products, then their rows (it
  // could walk a characteristic's rows across the catalogue); PostgreSQL plans it as the join it is.
  return sectionProducts(db, `|${filters}`)
    .crossJoin('productProperty as pp')
    .whereRef('pp.structureId', '=', 'structure.id')
    .where('pp.characteristicId', 'in', [...valueIds, ...rangeIds])
    .select((eb) => [
      sql<number>`${ref}`.as('c'),
      sql<string | null>`${value}`.as('value'),
      // Products, not rows: two variants of one product sharing a colour count once (decision 043).
      eb.fn.count<number | string | bigint>('structure.id').distinct().as('n'),
      eb.fn.min('pp.numValue').as('lo'),
      eb.fn.max('pp.numValue').as('hi'),
    ])
    .groupBy([sql`1`, sql`2`])
})

/** Shape: the filters' shape, as facetQuery's. The brands of the section's products under them, with how many products each. */
const brandQuery = preparedQuery<Omit<FacetRow, 'c' | 'lo' | 'hi'>, Record<string, unknown>>((db, shape) =>
  sectionProducts(db, `|${shape}`, true)
    .where('product.vendor', 'is not', null)
    .select((eb) => [sql<string | null>`${sql.ref('product.vendor')}`.as('value'), eb.fn.countAll<number>().as('n')])
    .groupBy(sql`1`),
)

/** The filters' shape of `query` without the order (as the listing's). */
function filtersShape(query: SectionQuery): string {
  const own = `${query.avail === null ? '' : 'a'}${query.min === null ? '' : 'n'}${query.max === null ? '' : 'x'}`
  return `${own}|${characteristicShape(query)}`
}

/** The counts of `counted` under `query`'s filters (the brand's from the product rows, the others' from their characteristics rows). */
async function countFacets(
  db: Queryable,
  sectionId: number,
  query: SectionQuery,
  counted: FilterCharacteristic[],
): Promise<FacetRow[]> {
  const brand = counted.find((c) => c.source === 'vendor')
  const values = counted.filter((c) => c.filter === 'values' && c !== brand)
  const ranges = counted.filter((c) => c.filter === 'range' && c !== brand)
  const slots: Record<string, unknown> = { ...listValues(sectionId, query) }
  values.forEach((c, i) => (slots[`ev${i}`] = c.id))
  ranges.forEach((c, i) => (slots[`er${i}`] = c.id))
  const shape = filtersShape(query)
  const [rows, brands] = await Promise.all([
    values.length + ranges.length > 0 ? facetQuery(db, `${shape}#${values.length},${ranges.length}`, slots) : [],
    brand ? brandQuery(db, shape, slots) : [],
  ])
  return [...rows, ...brands.map((r) => ({ ...r, c: brand!.id, lo: null, hi: null }))]
}

/** The section's filters by characteristic for this query, in the owner's order; those its products lack left out. */
export async function loadSectionFacets(
  db: Queryable,
  sectionId: number,
  query: SectionQuery,
  filters: readonly FilterCharacteristic[],
): Promise<SectionFacet[]> {
  if (filters.length === 0) return []
  const chosen = new Set([...query.values.map((f) => f.id), ...query.ranges.map((r) => r.id)])
  const free = filters.filter((c) => !chosen.has(c.id))
  const own = filters.filter((c) => chosen.has(c.id))
  const batches = await Promise.all([
    free.length > 0 ? countFacets(db, sectionId, query, free) : [],
    // A chosen characteristic's counts under the other filters: what choosing another value would show.
    ...own.map((c) =>
      countFacets(
        db,
        sectionId,
        {
          ...query,
          values: query.values.filter((f) => f.id !== c.id),
          ranges: query.ranges.filter((r) => r.id !== c.id),
        },
        [c],
      ),
    ),
  ])
  const rows = new Map<number, FacetRow[]>()
  for (const row of batches.flat()) {
    const id = Number(row.c)
    rows.set(id, [...(rows.get(id) ?? []), row])
  }
  return filters.flatMap((c): SectionFacet[] => {
    const mine = rows.get(c.id) ?? []
    const base = { id: c.id, title: c.title, unit: c.shownUnit || null, kind: c.filter }
    if (c.filter === 'range') {
      const lo = mine.map((r) => r.lo).filter((n) => n !== null)
      const hi = mine.map((r) => r.hi).filter((n) => n !== null)
      if (lo.length === 0 && !chosen.has(c.id)) return []
      const bound = (list: number[], pick: (...n: number[]) => number) =>
        list.length > 0 ? pick(...list.map(Number)) : null
      return [{ ...base, values: [], min: bound(lo, Math.min), max: bound(hi, Math.max) }]
    }
    const counts = mine
      .filter((r) => r.value !== null)
      .map((r) => ({ value: r.value!, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    const shown = counts.slice(0, MAX_FACET_VALUES)
    // A chosen value stays offered (to be unchosen), whatever its count.
    for (const value of query.values.find((f) => f.id === c.id)?.values ?? []) {
      if (!shown.some((v) => v.value === value))
        shown.push({ value, count: counts.find((v) => v.value === value)?.count ?? 0 })
    }
    return shown.length > 0 ? [{ ...base, values: shown, min: null, max: null }] : []
  })
}
