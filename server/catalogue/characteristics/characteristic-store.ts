// The characteristics' reads and the owner's writes (issue 46, docs/decisions/042-characteristics-and-filters.md).
// The rows are made by the product-row repository as names appear (products/characteristic-keys.ts);
// here they are listed for «Характеристики», changed by the owner through the write door, and read
// by the product page, its JSON-LD and the YML feed (the name and unit the site shows, hidden ones
// left out) and by a section's filters.
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentDoor } from '../../content/content-write'
import {
  suggestCharacteristic,
  type Characteristic,
  type CharacteristicSource,
  type FilterKind,
  type ListedCharacteristic,
} from '../../../src/catalogue/characteristics'

type Queryable = Kysely<Database> | Transaction<Database>

/** Filters a section offers at most (the lowest in the owner's order) */
export const MAX_FACETS = 8

/** A characteristic the owner made a filter, as the section's form names it. */
export interface FilterCharacteristic {
  readonly id: number
  readonly title: string
  readonly shownUnit: string
  readonly filter: 'values' | 'range'
  /** 'vendor': the product's brand, filtered by its values (migration 036) */
  readonly source: CharacteristicSource
}

/** A product characteristics row as the site shows it: the owner's name and unit (a row without a characteristic: its own). */
export const shownProperty = [
  'productProperty.groupName',
  sql<string>`coalesce(${sql.ref('characteristic.title')}, ${sql.ref('productProperty.name')})`.as('name'),
  'productProperty.value',
  sql<string | null>`case when ${sql.ref('characteristic.id')} is null then ${sql.ref('productProperty.unit')}
    else nullif(${sql.ref('characteristic.shownUnit')}, '') end`.as('unit'),
] as const

/** The rows the site shows: of a characteristic not hidden by the owner (no bound value: a fixed statement). */
export const visibleProperty = sql<SqlBool>`coalesce(${sql.ref('characteristic.shown')}, 1) = 1`

const COLUMNS = ['id', 'name', 'unit', 'title', 'shownUnit', 'shown', 'filter', 'sort', 'source'] as const

function characteristicOf(row: {
  id: number
  name: string
  unit: string
  title: string
  shownUnit: string
  shown: number
  filter: FilterKind
  sort: number
  source: CharacteristicSource
}): Characteristic {
  return { ...row, id: Number(row.id), shown: row.shown === 1, sort: Number(row.sort) }
}

/**
 * Every characteristic in the owner's order, with how many product rows carry it (the brand: how
 * many products have one) and a split offered. The brand is listed once products carry one.
 */
export async function listCharacteristics(db: Queryable): Promise<ListedCharacteristic[]> {
  const [rows, uses, branded] = await Promise.all([
    db.selectFrom('characteristic').select(COLUMNS).orderBy('sort').orderBy('id').execute(),
    db
      .selectFrom('productProperty')
      .select((eb) => ['characteristicId', eb.fn.countAll<number | string>().as('count')])
      .groupBy('characteristicId')
      .execute(),
    db
      .selectFrom('product')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('vendor', 'is not', null)
      .where('vendor', '!=', '')
      .executeTakeFirstOrThrow(),
  ])
  const counts = new Map(uses.map((u) => [Number(u.characteristicId), Number(u.count)]))
  return rows.flatMap((row) => {
    const c = characteristicOf(row)
    const products = c.source === 'vendor' ? Number(branded.count) : (counts.get(c.id) ?? 0)
    if (c.source === 'vendor' && products === 0 && c.filter === 'none') return []
    return [{ ...c, products, suggestion: suggestCharacteristic(c.name, c.unit, c) }]
  })
}

/**
 * The owner's choices for one characteristic: 'missing' for an unknown id, 'range' for the brand
 * made a range (its values are names), nothing written then. Every page may show it: all are dropped.
 */
export async function updateCharacteristic(
  door: ContentDoor,
  id: number,
  change: Pick<Characteristic, 'title' | 'shownUnit' | 'shown' | 'filter' | 'sort'>,
): Promise<'updated' | 'missing' | 'range'> {
  let outcome: 'updated' | 'missing' | 'range' = 'missing'
  await door.write(async (unit) => {
    const row = await unit.trx.selectFrom('characteristic').select('source').where('id', '=', id).executeTakeFirst()
    if (!row) return
    if (row.source === 'vendor' && change.filter === 'range') {
      outcome = 'range'
      return
    }
    await unit.trx
      .updateTable('characteristic')
      .set({ ...change, shown: change.shown ? 1 : 0 })
      .where('id', '=', id)
      .execute()
    outcome = 'updated'
    // The product pages, their JSON-LD, the sections' filters and the feed read it.
    unit.affectsEveryPage()
  })
  return outcome
}

/** What the feed needs of each characteristic: the name and unit shown, and whether it is. */
export async function shownCharacteristics(db: Queryable) {
  const rows = await db.selectFrom('characteristic').select(['id', 'title', 'shownUnit', 'shown']).execute()
  return new Map(rows.map((r) => [Number(r.id), { title: r.title, unit: r.shownUnit || null, shown: r.shown === 1 }]))
}

/** The characteristics the owner made filters, in the owner's order: the sections' forms offer these. */
export async function loadFilterCharacteristics(db: Queryable): Promise<FilterCharacteristic[]> {
  const rows = await db
    .selectFrom('characteristic')
    .select(['id', 'title', 'shownUnit', 'filter', 'source'])
    .where('filter', '!=', 'none')
    .orderBy('sort')
    .orderBy('id')
    .limit(MAX_FACETS)
    .execute()
  return rows.map((r) => ({ ...r, id: Number(r.id), filter: r.filter as FilterCharacteristic['filter'] }))
}
