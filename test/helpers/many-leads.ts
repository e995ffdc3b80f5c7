// 100,000 leads straight into the database (issue 27): the inbox, the search and the CSV export at
// scale, for the tests and `npm run bench`. Stored as the intake stores them, search text included;
// every tenth is spam, and ten leads share each second, so paging must order by (createdAt, id).
import type { Db } from '../../server/data/db'
import { leadSearchText } from '../../server/leads/store/lead-search'

const STATUSES = ['new', 'in_progress', 'closed'] as const
const BATCH = 500

/** The phone of lead n (0-based): +7 (9xx) xxx-xx-xx, unique per n. */
export function phoneOf(n: number): string {
  const digits = String(9_000_000_000 + n)
  return `+7 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6, 8)}-${digits.slice(8, 10)}`
}

/** Inserts `count` leads, oldest first, ten to a second from 2026-01-01; returns how many are not spam. */
export async function insertManyLeads(db: Db, count: number): Promise<number> {
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  let real = 0
  for (let from = 0; from < count; from += BATCH) {
    const rows = []
    for (let n = from; n < Math.min(count, from + BATCH); n++) {
      const username = `Покупатель ${n}`
      const email = `buyer${n}@example.ru`
      const phone = phoneOf(n)
      const phoneE164 = `+7${String(9_000_000_000 + n)}`
      const spam = n % 10 === 9 ? 1 : 0
      if (!spam) real++
      rows.push({
        username,
        email,
        phone,
        phoneE164,
        createdAt: new Date(start + Math.floor(n / 10) * 1000).toISOString(),
        spam,
        status: STATUSES[n % 3],
        sourceUrl: '/structure/product',
        searchText: leadSearchText({ username, email, phone, phoneE164 }),
      })
    }
    await db.insertInto('feedback').values(rows).execute()
  }
  return real
}
