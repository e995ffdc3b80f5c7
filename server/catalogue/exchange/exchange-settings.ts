// The owner's settings of the 1C exchange, kept in `siteSetting` (the back office's «Обмен с 1С»):
// whether it is on, which of 1C's price types is the price and which the old price, and what a
// product out of stock shows. The credentials are the operator's (EXCHANGE_1C_LOGIN/PASSWORD).
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../data/schema'

type Queryable = Kysely<Database> | Transaction<Database>

export interface ExchangeSettings {
  /** The owner's switch: off answers 1C `failure` */
  readonly enabled: boolean
  /** 1C's price type (its Ид or name) that is the price; '' = the first the file lists */
  readonly priceType: string
  /** The price type that is the old price; '' = none */
  readonly oldPriceType: string
  /** What a product with no stock shows */
  readonly zeroStock: 'out_of_stock' | 'on_order'
}

export const DEFAULT_SETTINGS: ExchangeSettings = Object.freeze({
  enabled: true,
  priceType: '',
  oldPriceType: '',
  zeroStock: 'out_of_stock',
})

const PREFIX = 'exchange1c.'

export async function readSettings(db: Queryable): Promise<ExchangeSettings> {
  const rows = await db
    .selectFrom('siteSetting')
    .select(['name', 'value'])
    .where('name', 'like', `${PREFIX}%`)
    .execute()
  const value = new Map(rows.map((r) => [r.name.slice(PREFIX.length), r.value]))
  return {
    enabled: value.has('enabled') ? value.get('enabled') === 'true' : DEFAULT_SETTINGS.enabled,
    priceType: value.get('priceType') ?? DEFAULT_SETTINGS.priceType,
    oldPriceType: value.get('oldPriceType') ?? DEFAULT_SETTINGS.oldPriceType,
    zeroStock: value.get('zeroStock') === 'on_order' ? 'on_order' : 'out_of_stock',
  }
}

export async function writeSettings(db: Queryable, settings: ExchangeSettings): Promise<void> {
  const entries: [string, string][] = [
    ['enabled', String(settings.enabled)],
    ['priceType', settings.priceType],
    ['oldPriceType', settings.oldPriceType],
    ['zeroStock', settings.zeroStock],
  ]
  for (const [name, value] of entries) {
    await db
      .insertInto('siteSetting')
      .values({ name: PREFIX + name, value })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
      .execute()
  }
}

/** 1C's price types the last offers named (Ид → name): what the back office offers to choose from. */
export async function rememberPriceTypes(db: Queryable, types: Record<string, string>): Promise<void> {
  const value = JSON.stringify(types).slice(0, 2000)
  await db
    .insertInto('siteSetting')
    .values({ name: `${PREFIX}knownPriceTypes`, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute()
}

export async function knownPriceTypes(db: Queryable): Promise<{ id: string; name: string }[]> {
  const row = await db
    .selectFrom('siteSetting')
    .select('value')
    .where('name', '=', `${PREFIX}knownPriceTypes`)
    .executeTakeFirst()
  if (!row) return []
  try {
    return Object.entries(JSON.parse(row.value) as Record<string, string>).map(([id, name]) => ({ id, name }))
  } catch {
    return []
  }
}
