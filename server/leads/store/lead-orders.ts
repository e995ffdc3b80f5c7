// The leads the 1C exchange gives 1C as orders (server/leads/exchange/one-c-orders.ts): those 1C has
// not taken yet, never spam and never one whose personal data was erased, oldest first; and the mark
// that 1C took them, set once; and the status 1C sends back for them later.
import type { Db } from '../../data/db'

export interface OrderLead {
  readonly id: number
  readonly createdAt: string
  readonly username: string
  readonly phone: string
  readonly email: string
  readonly sourceUrl: string | null
  readonly productId: number | null
  readonly productTitle: string | null
  readonly utm: string | null
  /** Whole kopecks: the lines' total when every line has a price (docs/decisions/041-request-list.md) */
  readonly total: number | null
}

export async function leadsForOrders(db: Db, limit: number): Promise<OrderLead[]> {
  return db
    .selectFrom('feedback')
    .select(['id', 'createdAt', 'username', 'phone', 'email', 'sourceUrl', 'productId', 'productTitle', 'utm', 'total'])
    .where('exportedAt', 'is', null)
    .where('spam', '=', 0)
    .where('anonymizedAt', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** 1C took these leads as orders: marked once, the first time. */
export async function markExported(db: Db, ids: readonly number[], at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('feedback')
      .set({ exportedAt: at })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('exportedAt', 'is', null)
      .execute()
  }
}

/** Of these lead ids, those 1C took as orders (a status from 1C is kept for them alone). */
export async function exportedLeads(db: Db, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>()
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('feedback')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 500))
      .where('exportedAt', 'is not', null)
      .execute()
    for (const row of rows) out.add(row.id)
  }
  return out
}

/** The order's status as 1C sent it back, on each lead (the owner's own status stays as it is). */
export async function setOneCStatuses(db: Db, statuses: ReadonlyMap<number, string>, at: string): Promise<void> {
  for (const [id, status] of statuses) {
    await db.updateTable('feedback').set({ oneCStatus: status, oneCStatusAt: at }).where('id', '=', id).execute()
  }
}
