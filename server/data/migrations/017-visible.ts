// Forward-only: a released migration is never edited, a new file follows it.
// `structure.visible` (issue 37, docs/decisions/024-public-reads.md): 1 while the record and every
// record above it are published and not withdrawn. The write door keeps it current; this fills it
// once for the records that exist, with the rule as it stands today (content/visibility.ts).
import type { Kysely } from 'kysely'

interface Row {
  id: number
  parentId: number | null
  published: number
  status: number | null
}

const CHUNK = 500

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('structure')
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  const rows = (await db.selectFrom('structure').select(['id', 'parentId', 'published', 'status']).execute()) as Row[]
  const byId = new Map(rows.map((r) => [r.id, r]))
  const visible = new Map<number, boolean>()
  const resolve = (row: Row, depth = 0): boolean => {
    const known = visible.get(row.id)
    if (known !== undefined) return known
    const own = Boolean(row.published) && row.status !== 404 && row.status !== 410
    const parent = row.parentId === null ? undefined : byId.get(row.parentId)
    const value = own && (parent === undefined || depth > 1000 || resolve(parent, depth + 1))
    visible.set(row.id, value)
    return value
  }
  const hidden = rows.filter((row) => !resolve(row)).map((row) => row.id)
  for (let i = 0; i < hidden.length; i += CHUNK) {
    await db
      .updateTable('structure')
      .set({ visible: 0 })
      .where('id', 'in', hidden.slice(i, i + CHUNK))
      .execute()
  }
}
