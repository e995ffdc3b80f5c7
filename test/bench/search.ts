// Search p50/p99 at 10,000 products (issue 22, docs/decisions/030-search.md), on SQLite and, with
// TEST_DATABASE_URL, PostgreSQL: 200 sections × 50 products written through the repository in one
// transaction and indexed by reindexProducts as every write path is, then 1-, 2- and 3-word queries
// and артикулы in another form, each timed through the search the page calls (CatalogueSearch.find:
// the query, and on zero hits the typo correction). `npm run bench` runs it; alone:
// `node --import tsx test/bench/search.ts [products]`.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { WriteDoor } from '../../server/catalogue/write-door'
import { CatalogueSearch } from '../../server/catalogue/search/search-service'
import { readConfig } from '../../server/config/config'
import { insertRecord } from '../../server/content/structure-store'
import { now, openDatabase, type Db } from '../../server/data/db'
import { tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { percentile } from './load'

const KINDS = [
  ['Дрель', 'дрели', 'дрелью'],
  ['Перфоратор', 'перфоратора', 'перфораторы'],
  ['Шуруповёрт', 'шуруповерты', 'шуруповерта'],
  ['Холодильник', 'холодильника', 'холодильники'],
  ['Пила', 'пилы', 'пилу'],
  ['Лобзик', 'лобзика', 'лобзики'],
  ['Кусторез', 'кустореза', 'кусторезы'],
  ['Триммер', 'триммера', 'триммеры'],
  ['Насос', 'насоса', 'насосы'],
  ['Молоток', 'молотка', 'молотки'],
  ['Газонокосилка', 'газонокосилки', 'газонокосилку'],
  ['Рулетка', 'рулетки', 'рулеткой'],
  ['Уровень', 'уровня', 'уровни'],
  ['Плитка', 'плитки', 'плиткой'],
  ['Смеситель', 'смесителя', 'смесители'],
  ['Светильник', 'светильника', 'светильники'],
  ['Удлинитель', 'удлинителя', 'удлинители'],
  ['Генератор', 'генератора', 'генераторы'],
  ['Компрессор', 'компрессора', 'компрессоры'],
  ['Краскопульт', 'краскопульта', 'краскопульты'],
] as const
const ADJECTIVES = [
  ['ударная', 'ударный'],
  ['аккумуляторная', 'аккумуляторный'],
  ['сетевая', 'сетевой'],
  ['бензиновая', 'бензиновый'],
  ['компактная', 'компактный'],
  ['профессиональная', 'профессиональный'],
  ['садовая', 'садовый'],
  ['строительная', 'строительный'],
  ['бесщёточная', 'бесщёточный'],
  ['усиленная', 'усиленный'],
] as const
const BRANDS = ['Зубр', 'Интерскол', 'Макита', 'Бош', 'Калибр', 'Энкор', 'Patriot', 'Huter', 'Denzel', 'Ресанта']
const PROPERTIES = ['сталь', 'пластик', 'алюминий', 'чёрный', 'синий', 'зелёный', 'литий-ионный', 'кейс']
const SECTIONS = 200

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length]
}

function articleOf(i: number): string {
  return `${pick(['ЭИ', 'СТ', 'РИ', 'AB', 'KX'], i)}-${String(10_000 + i)}/${i % 7}`
}

/** The catalogue: SECTIONS sections of products/SECTIONS products each; returns the products' titles. */
export async function seedCatalogue(db: Db, products: number): Promise<void> {
  const stamp = now()
  // Through the write door, which indexes every record it created for search.
  await new WriteDoor(db, { indexNowOrigin: null }).write(async (unit) => {
    const trx = unit.trx
    const root = await insertRecord(unit, {
      typeId: 'index',
      title: 'Магазин',
      urlFull: '/',
      createdAt: stamp,
      updatedAt: stamp,
    })
    for (let s = 0; s < SECTIONS; s++) {
      const section = await insertRecord(unit, {
        parentId: root,
        typeId: 'section',
        title: `Раздел ${s + 1}`,
        urlFull: `/catalog/s${s}/`,
        sort: s,
        createdAt: stamp,
        updatedAt: stamp,
      })
      for (let j = 0; j < products / SECTIONS; j++) {
        const i = s * (products / SECTIONS) + j
        const kind = pick(KINDS, i)
        const adjective = pick(ADJECTIVES, Math.floor(i / KINDS.length))[kind[0].endsWith('а') ? 0 : 1]
        const brand = pick(BRANDS, Math.floor(i / 7))
        const id = await insertRecord(unit, {
          parentId: section,
          typeId: 'product',
          title: `${kind[0]} ${adjective} ${brand} ${100 + (i % 900)}`,
          urlFull: `/catalog/s${s}/p${i}`,
          sort: j,
          createdAt: stamp,
          updatedAt: stamp,
        })
        await trx
          .insertInto('product')
          .values({
            structureId: id,
            article: articleOf(i),
            price: 1000 + (i % 50) * 100,
            vendor: brand,
            description: `${kind[0]} ${brand} для дома и дачи. ${adjective} модель, гарантия ${1 + (i % 3)} года, доставка по России.`,
          })
          .execute()
        await trx
          .insertInto('productProperty')
          .values([
            { structureId: id, name: 'Материал', value: pick(PROPERTIES, i), sort: 0 },
            { structureId: id, name: 'Вес', value: String(1 + (i % 20)), unit: 'кг', sort: 1 },
          ])
          .execute()
      }
    }
  })
}

/** Queries of each kind, as visitors type them: inflected, lower case, артикулы in another form. */
function queries(products: number): Record<string, string[]> {
  const out: Record<string, string[]> = { '1 word': [], '2 words': [], '3 words': [], артикул: [] }
  for (let i = 0; i < 200; i++) {
    const kind = pick(KINDS, i * 7)
    const form = pick(kind, i)
    const adjective = pick(ADJECTIVES, i * 3)[1]
    const brand = pick(BRANDS, i * 5).toLowerCase()
    out['1 word'].push(i % 10 === 0 ? form.slice(0, 5) : form.toLowerCase())
    out['2 words'].push(`${form.toLowerCase()} ${adjective}`)
    out['3 words'].push(`${form.toLowerCase()} ${adjective} ${brand.slice(0, 4)}`)
    out['артикул'].push(
      articleOf((i * 9973) % products)
        .toLowerCase()
        .replace(/[-/]/g, ''),
    )
  }
  return out
}

async function timeQueries(db: Db, products: number) {
  const search = new CatalogueSearch(db)
  const rows: Record<string, string | number>[] = []
  for (const [kind, list] of Object.entries(queries(products))) {
    for (const q of list.slice(0, 20)) await search.find(q, 1) // warm-up: statements prepared, pages cached
    const times: number[] = []
    let hits = 0
    for (let round = 0; round < 3; round++) {
      for (const q of list) {
        const started = process.hrtime.bigint()
        const answer = await search.find(q, 1)
        times.push(Number(process.hrtime.bigint() - started) / 1e6)
        if (answer.products.length > 0) hits++
      }
    }
    times.sort((a, b) => a - b)
    rows.push({
      query: kind,
      example: list[1],
      'p50 ms': percentile(times, 50).toFixed(2),
      'p99 ms': percentile(times, 99).toFixed(2),
      'with hits': `${Math.round((100 * hits) / times.length)} %`,
    })
  }
  return rows
}

export async function benchSearch(products = 10_000): Promise<void> {
  const P99_FLOOR_MS = 15
  const dialects: { name: string; open(): Promise<{ db: Db; done(): Promise<void> }> }[] = [
    {
      name: 'SQLite',
      async open() {
        const dir = tempDir('vitrina-bench-search-')
        const config = readConfig({ DATABASE_URL: `file:${path.join(dir, 'site.db')}`, LOG_LEVEL: 'silent' })
        const db = await openDatabase(config.database)
        return { db, done: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) }
      },
    },
  ]
  if (TEST_DATABASE_URL) {
    dialects.push({
      name: 'PostgreSQL',
      async open() {
        const schema = await createTestSchema()
        const config = readConfig({ DATABASE_URL: schema.url, LOG_LEVEL: 'silent' })
        const db = await openDatabase(config.database)
        return { db, done: async () => (await db.destroy(), await schema.drop()) }
      },
    })
  }
  for (const dialect of dialects) {
    const { db, done } = await dialect.open()
    try {
      const started = Date.now()
      await seedCatalogue(db, products)
      // PostgreSQL analyses a table soon after a bulk load (autovacuum); the bench does not wait for it.
      if (dialect.name === 'PostgreSQL') await sql`analyze`.execute(db)
      console.log(
        `Search at ${products} products on ${dialect.name} (written and indexed in one transaction in ${((Date.now() - started) / 1000).toFixed(1)} s):`,
      )
      const rows = await timeQueries(db, products)
      console.table(rows)
      if (dialect.name === 'SQLite') {
        const worst = Math.max(...rows.map((r) => Number(r['p99 ms'])))
        console.log(
          `  search p99 ≤ ${P99_FLOOR_MS} ms on SQLite: ${worst} ms, ${worst <= P99_FLOOR_MS ? 'met' : 'NOT met'}`,
        )
      }
    } finally {
      await done()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchSearch(Number(process.argv[2] ?? 10_000))
}
