// A generated catalogue, written straight into the database in batches inside one transaction
// (not one HTTP request per record): the scale tests and `npm run bench` use it. Products get
// prices, availabilities and titles that vary in a fixed way, so every order and filter has work;
// with `properties`, five characteristics each (two filters by value, two by range, one not a filter).
import { bumpContentVersion, now, type Db } from '../../server/data/db'
import { writeTransaction } from '../../server/data/write-transaction'
import { numericValue } from '../../src/catalogue/characteristics'
import type { Availability } from '../../server/data/schema'

export interface GeneratedCatalogue {
  /** The sections made, in order, with how many products each holds */
  readonly sections: readonly { id: number; urlFull: string; products: number }[]
  readonly products: number
  /** With `properties`: the characteristics' ids by name (Бренд, Цвет, Мощность, Вес, Код) */
  readonly characteristics: Readonly<Record<string, number>>
}

export interface CatalogueShape {
  /** Where the sections go: an existing section's URL (default the demo's catalogue root) */
  readonly under?: string
  readonly sections: number
  readonly products: number
  /** Products of the first section, the rest spread evenly over the others (default: all even) */
  readonly firstSection?: number
  /** Marks every n-th product featured (default none) */
  readonly featuredEvery?: number
  /** A prefix for URLs, so two catalogues can live side by side */
  readonly slug?: string
  /** Gives every product five characteristics (decision 042), the filters set as the owner would */
  readonly properties?: boolean
}

const BRANDS = [
  'Bosch',
  'Makita',
  'Интерскол',
  'DeWalt',
  'Metabo',
  'Hitachi',
  'Зубр',
  'Калибр',
  'Ryobi',
  'AEG',
  'Hilti',
  'Stihl',
]
const COLORS = ['синий', 'зелёный', 'красный', 'жёлтый', 'чёрный', 'серый', 'белый', 'оранжевый']
const CHARACTERISTICS = [
  { name: 'Бренд', unit: '', filter: 'values' },
  { name: 'Цвет', unit: '', filter: 'values' },
  { name: 'Мощность', unit: 'Вт', filter: 'range' },
  { name: 'Вес', unit: 'кг', filter: 'range' },
  { name: 'Код', unit: '', filter: 'none' },
] as const

/** Product n's characteristics, in CHARACTERISTICS' order */
function propertiesOf(n: number): string[] {
  return [
    BRANDS[(n * 5) % BRANDS.length],
    COLORS[n % COLORS.length],
    String(400 + ((n * 13) % 40) * 50),
    `${1 + (n % 5)},${n % 10}`,
    `OZ-${n}`,
  ]
}

const BATCH = 500
const AVAILABILITY: Availability[] = ['in_stock', 'in_stock', 'on_order', 'out_of_stock']
const NOUNS = [
  'Дрель',
  'Шуруповёрт',
  'Пила',
  'Болт',
  'Саморез',
  'Перфоратор',
  'Лобзик',
  'Ключ',
  'Уровень',
  'Шлифмашина',
]

/** How many products section i (0-based) of the shape gets. */
function productsOf(shape: CatalogueShape, i: number): number {
  const first = shape.firstSection ?? Math.floor(shape.products / shape.sections)
  if (i === 0) return Math.min(first, shape.products)
  const rest = shape.products - Math.min(first, shape.products)
  const others = shape.sections - 1
  return Math.floor(rest / others) + (i - 1 < rest % others ? 1 : 0)
}

export async function generateCatalogue(db: Db, shape: CatalogueShape): Promise<GeneratedCatalogue> {
  const slug = shape.slug ?? 'gen'
  const stamp = now()
  return writeTransaction(db, async (trx) => {
    const parent = await trx
      .selectFrom('structure')
      .select(['id', 'urlFull'])
      .where('urlFull', '=', shape.under ?? '/structure/')
      .executeTakeFirstOrThrow()
    const base = {
      typeId: 'section',
      published: 1,
      status: null,
      content: null,
      metaTitle: null,
      metaDescription: null,
      metaImage: null,
      metaRobots: null,
      metaJsonLd: null,
      createdAt: stamp,
      updatedAt: stamp,
    }
    const characteristics: Record<string, number> = {}
    if (shape.properties) {
      for (const [sort, c] of CHARACTERISTICS.entries()) {
        const row = await trx
          .insertInto('characteristic')
          .values({ name: c.name, unit: c.unit, title: c.name, shownUnit: c.unit, filter: c.filter, sort })
          .onConflict((oc) => oc.columns(['name', 'unit']).doUpdateSet({ filter: c.filter, sort }))
          .returning('id')
          .executeTakeFirstOrThrow()
        characteristics[c.name] = Number(row.id)
      }
    }
    const sections: { id: number; urlFull: string; products: number }[] = []
    for (let from = 0; from < shape.sections; from += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, shape.sections - from) }, (_, k) => {
        const i = from + k
        return {
          ...base,
          parentId: parent.id,
          title: `Раздел ${i + 1}`,
          urlFull: `${parent.urlFull}${slug}-${i + 1}/`,
          sort: 1000 + i,
        }
      })
      const ids = await trx.insertInto('structure').values(rows).returning(['id', 'urlFull']).execute()
      for (const [k, row] of ids.entries()) {
        sections.push({ id: Number(row.id), urlFull: row.urlFull, products: productsOf(shape, from + k) })
      }
    }
    let n = 0
    const pending: { parentId: number; urlFull: string; sort: number; n: number }[] = []
    const flush = async () => {
      if (pending.length === 0) return
      const ids = await trx
        .insertInto('structure')
        .values(
          pending.map((p) => ({
            ...base,
            typeId: 'product',
            parentId: p.parentId,
            // Names that sort differently from the tree order and from the price order.
            title: `${NOUNS[(p.n * 7) % NOUNS.length]} модель ${String((p.n * 7919) % 100_000).padStart(5, '0')}`,
            urlFull: p.urlFull,
            sort: p.sort,
          })),
        )
        .returning('id')
        .execute()
      await trx
        .insertInto('product')
        .values(
          pending.map((p, k) => ({
            structureId: Number(ids[k].id),
            image: null,
            article: `G-${p.n}`,
            // Every 10th has no price («Цена по запросу»); the rest vary with ties, some with kopecks.
            price: p.n % 10 === 9 ? null : (100 + ((p.n * 37) % 50) * 10) * 100 + (p.n % 3 === 1 ? 50 : 0),
            description: `Товар номер ${p.n} сгенерированного каталога.`,
            availability: AVAILABILITY[p.n % AVAILABILITY.length],
            featured: shape.featuredEvery && p.n % shape.featuredEvery === 0 ? 1 : 0,
          })),
        )
        .execute()
      if (shape.properties) {
        const rows = pending.flatMap((p, k) =>
          propertiesOf(p.n).map((value, sort) => {
            const c = CHARACTERISTICS[sort]
            const characteristicId = characteristics[c.name]
            const unit = c.unit || null
            return {
              structureId: Number(ids[k].id),
              groupName: null,
              name: c.name,
              value,
              unit,
              sort,
              characteristicId,
              numValue: numericValue(value),
            }
          }),
        )
        for (let i = 0; i < rows.length; i += BATCH)
          await trx
            .insertInto('productProperty')
            .values(rows.slice(i, i + BATCH))
            .execute()
      }
      pending.length = 0
    }
    for (const section of sections) {
      for (let j = 0; j < section.products; j++) {
        pending.push({ parentId: section.id, urlFull: `${section.urlFull}p-${n + 1}`, sort: j, n: n++ })
        if (pending.length === BATCH) await flush()
      }
    }
    await flush()
    await bumpContentVersion(trx)
    return { sections, products: n, characteristics }
  })
}
