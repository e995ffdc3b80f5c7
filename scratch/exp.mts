import { sql } from 'kysely'
import { readConfig } from '../server/config/config'
import { openDatabase } from '../server/data/db'
import { insertManyLeads } from '../test/helpers/many-leads'
import fs from 'node:fs'
fs.rmSync('/tmp/exp-db', { recursive: true, force: true }); fs.mkdirSync('/tmp/exp-db')
const db = await openDatabase(readConfig({ DATABASE_URL: 'file:/tmp/exp-db/site.db' }).database)
let t = performance.now()
await insertManyLeads(db, 100000)
console.log('insert', performance.now() - t)
const q = async (label: string, s: any) => { const t = performance.now(); const r = await s.execute(db); console.log(label, (performance.now() - t).toFixed(2), r.rows.length, JSON.stringify(r.rows.slice(0, 3))) }
for (const term of ['покупатель 4242', '9000004242', 'buyer9', 'example', 'zzzq']) {
  const phrase = `"${term}"`
  const pattern = `%${term}%`
  const main = sql`select id from feedback where id in (select rowid from "feedbackSearch" where "feedbackSearch" match ${phrase}) and "searchText" like ${pattern} escape '\\' and spam = 0 and status = 'new' order by "createdAt" desc, id desc limit 51`
  await q('plan ' + term, sql`explain query plan ${main}`)
  await q('run ' + term, main)
  await q('run2 ' + term, main)
  await q('scan ' + term, sql`select id from feedback where "searchText" like ${pattern} escape '\\' and spam = 0 and status = 'new' order by "createdAt" desc, id desc limit 51`)
  await q('count ' + term, sql`select count(*) from (select id from feedback where id in (select rowid from "feedbackSearch" where "feedbackSearch" match ${phrase}) and "searchText" like ${pattern} escape '\\' and spam = 1 limit 1001)`)
  await q('probe ' + term, sql`select count(*) from (select rowid from "feedbackSearch" where "feedbackSearch" match ${phrase} limit 2001)`)
}
await db.destroy()
