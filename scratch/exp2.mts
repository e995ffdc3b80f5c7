import { sql } from 'kysely'
import { readConfig } from '../server/config/config'
import { openDatabase } from '../server/data/db'
import { listLeads } from '../server/leads/store/lead-queries'
const url = process.argv[2] ?? 'file:/tmp/exp-db/site.db'
const db = await openDatabase(readConfig({ DATABASE_URL: url }).database)
if (process.argv[3] === 'seed') { const { insertManyLeads } = await import('../test/helpers/many-leads'); await insertManyLeads(db, 100000); await sql`analyze`.execute(db) }
for (const q of ['покупатель 4242', '8 900 000-42-42', 'buyer9', 'example', 'zzzq', 'покупатель 99', 'zz', '№ 5', '"', 'a"b*', 'NEAR(x y)', 'x\u0000yz', '99']) {
  let best = 1e9; let r: any
  for (let i = 0; i < 5; i++) { const t = performance.now(); r = await listLeads(db, { tab: 'new', q, page: 1, pageSize: 20 }); best = Math.min(best, performance.now() - t) }
  console.log(JSON.stringify(q), best.toFixed(2), r.data.length, JSON.stringify(r.counts))
}
await db.destroy()
