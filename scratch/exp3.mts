import { sql } from 'kysely'
import { readConfig } from '../server/config/config'
import { openDatabase } from '../server/data/db'
import fs from 'node:fs'
fs.rmSync('/tmp/exp3', { recursive: true, force: true }); fs.mkdirSync('/tmp/exp3')
const db = await openDatabase(readConfig({ DATABASE_URL: 'file:/tmp/exp3/site.db' }).database)
await db.insertInto('feedback').values({ username: 'x', email: 'e', phone: 'p', createdAt: 'now', spam: 0, status: 'new', sourceUrl: '/', searchText: 'снеговик ☃☃☃\nqjvzx@snow.example' } as any).execute()
await sql`create virtual table temp.v using fts5vocab(main, 'feedbackSearch', 'row')`.execute(db)
console.log((await sql`select term from temp.v`.execute(db)).rows.map((r: any) => r.term).join('|'))
const { rows } = await sql<any>`select id, block from "feedbackSearch_data"`.execute(db)
for (const r of rows) console.log(r.id, Buffer.from(r.block).toString('latin1').replace(/[^\x20-\x7e]/g, '.'))
console.log(rows.map((r:any)=>Buffer.from(r.block).includes(Buffer.from('☃☃☃'))))
