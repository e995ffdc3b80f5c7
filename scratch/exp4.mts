import { sql, Kysely, SqliteDialect, PostgresDialect, CompiledQuery } from 'kysely'
import pg from 'pg'
import { readConfig } from '../server/config/config'
import { openDatabase } from '../server/data/db'
import { SQLite } from '../server/data/sqlite-driver'
import { generateCatalogue } from '../test/helpers/catalogue'
import { WriteDoor } from '../server/catalogue/write-door'
import { CatalogueSearch } from '../server/catalogue/search/search-service'
import fs from 'node:fs'
const url = process.argv[2] ?? 'file:/tmp/exp4/site.db'
const n = Number(process.argv[3] ?? 10000)
if (url.startsWith('file:')) { fs.rmSync('/tmp/exp4', { recursive: true, force: true }); fs.mkdirSync('/tmp/exp4') }
const db = await openDatabase(readConfig({ DATABASE_URL: url, SEED_DEMO: 'true' }).database)
const { seedDemo } = await import('../server/content/seed').catch(() => ({ seedDemo: null as any }))
const root = await db.selectFrom('structure').select('id').where('urlFull', '=', '/structure/').executeTakeFirst()
if (!root) { await db.insertInto('structure').values({ typeId: 'section', title: 'Каталог', urlFull: '/structure/', published: 1, createdAt: 'x', updatedAt: 'x', sort: 0 } as any).execute() }
let t = performance.now()
await generateCatalogue(db, { sections: 200, products: n, firstSection: 1500 })
const ids = (await db.selectFrom('structure').select('id').execute()).map((r) => r.id)
await new WriteDoor(db, { indexNowOrigin: null }).write((unit) => unit.touch(ids), { announce: false })
console.log('seeded', ((performance.now() - t) / 1000).toFixed(1))
const caught: CompiledQuery[] = []
const logging = url.startsWith('file:') ? new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(url.slice(5)) }), log: (e) => { if (e.level === 'query') caught.push(e.query) } })
  : new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }), log: (e) => { if (e.level === 'query') caught.push(e.query) } })
const search = new CatalogueSearch(logging)
for (const q of ['дрель', 'дрель модель', 'ключ модель 07919', 'модель 0791', 'g4242', '0791']) {
  const times: number[] = []
  for (let i = 0; i < 30; i++) { caught.length = 0; const s = performance.now(); await search.find(q, 1); times.push(performance.now() - s) }
  times.sort((a, b) => a - b)
  console.log(q, 'p50', times[15].toFixed(2), 'max', times[29].toFixed(2), 'queries', caught.length)
  if (process.argv[4]) for (const c of caught) { const s = performance.now(); await db.executeQuery(c); console.log('   ', (performance.now() - s).toFixed(2), c.sql.slice(0, 300).replace(/\s+/g, ' '), JSON.stringify(c.parameters)) }
}
await logging.destroy(); await db.destroy()
