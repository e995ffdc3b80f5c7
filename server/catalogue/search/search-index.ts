// Keeps the search index (docs/decisions/030-search.md) in step with the records: every write path
// calls reindexProducts(trx, ids) inside its own transaction, after its rows are written, with the
// ids of the structure records it touched (a product, a section, a page; deleted ones too). The
// index row of each is rewritten from what the record holds now, or removed when it is gone, and
// the typo vocabulary's counts follow. Visibility is not indexed: the search asks the one public
// rule (content/visibility.ts) when it reads, so publishing or withdrawing needs nothing here.
import { sql, type Kysely, type Transaction } from 'kysely'
import { type Db } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import type { Database } from '../../data/schema'
import { searchDocument } from './search-text'
import { isSqlite } from '../../data/sql/dialect'

type Queryable = Kysely<Database> | Transaction<Database>

/** Records per round: bounds each statement's parameters on both databases */
const CHUNK = 400

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * Rewrites the search index rows of the given structure records from their current rows (title,
 * артикул, brand, description, characteristics), inside the caller's transaction. Ids of records
 * that no longer exist lose their rows. Call it from every write of structure, product or
 * productProperty rows, before the transaction commits.
 */
export async function reindexProducts(trx: Queryable, ids: readonly number[]): Promise<void> {
  for (const chunk of chunks([...new Set(ids)], CHUNK)) await reindexChunk(trx, chunk)
}

async function reindexChunk(trx: Queryable, ids: number[]): Promise<void> {
  const [records, properties, old, variants] = await Promise.all([
    trx
      .selectFrom('structure')
      .leftJoin('product', 'product.structureId', 'structure.id')
      .select(['structure.id', 'structure.title', 'product.article', 'product.vendor', 'product.description'])
      .where('structure.id', 'in', ids)
      .execute(),
    trx
      .selectFrom('productProperty')
      .select(['structureId', 'value'])
      .where('structureId', 'in', ids)
      .orderBy('structureId')
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    trx
      .selectFrom('searchIndex')
      .select(['structureId', 'articleKey', 'name', 'body'])
      .where('structureId', 'in', ids)
      .execute(),
    // Its variants' артикулы are found as its own (decision 043).
    trx
      .selectFrom('productVariant')
      .select(['productId', 'article'])
      .where('productId', 'in', ids)
      .where('article', 'is not', null)
      .orderBy('productId')
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ])
  const delta = new Map<string, { uses: number; word: string }>()
  const count = (token: string, by: number, word = token) => {
    const entry = delta.get(token)
    if (entry) entry.uses += by
    else delta.set(token, { uses: by, word })
  }
  for (const row of old) {
    for (const token of new Set(`${row.name} ${row.body}`.split(' '))) if (token) count(token, -1)
  }
  const valuesOf = new Map<number, string[]>()
  for (const p of properties) {
    const list = valuesOf.get(p.structureId)
    if (list) list.push(p.value)
    else valuesOf.set(p.structureId, [p.value])
  }
  const rows = records.map((record) => {
    const doc = searchDocument({
      title: record.title,
      article: record.article,
      vendor: record.vendor,
      description: record.description,
      properties: valuesOf.get(record.id) ?? [],
      variantArticles: variants.filter((v) => v.productId === record.id).map((v) => v.article!),
    })
    for (const [token, word] of doc.words) count(token, 1, word)
    return { structureId: record.id, articleKey: doc.articleKey, name: doc.name, body: doc.body }
  })
  // A record whose words did not change (a new price from a price list) keeps its row: on
  // PostgreSQL rewriting it means rewriting its entries of the GIN index.
  const kept = new Map(old.map((row) => [row.structureId, row]))
  const same = new Set<number>()
  const changed = rows.filter((row) => {
    const was = kept.get(row.structureId)
    const unchanged = was && was.name === row.name && was.body === row.body && was.articleKey === row.articleKey
    if (unchanged) same.add(row.structureId)
    return !unchanged
  })
  const rewritten = ids.filter((id) => !same.has(id))
  if (rewritten.length > 0) await trx.deleteFrom('searchIndex').where('structureId', 'in', rewritten).execute()
  for (const batch of chunks(changed, 100)) await trx.insertInto('searchIndex').values(batch).execute()
  // PostgreSQL: the rows' words went to the GIN index's pending list; merged now, in bulk (a log
  // record per word of the chunk, not per word of each row), and before any search has to read
  // them from the list (migration 039).
  if (changed.length > 0 && !isSqlite(trx)) {
    await sql`SELECT gin_clean_pending_list('search_index_document'::regclass)`.execute(trx)
  }
  await applyVocabulary(trx, delta)
}

/** Adds each token's change of uses to the vocabulary; a token no record uses any more leaves it. */
async function applyVocabulary(trx: Queryable, delta: Map<string, { uses: number; word: string }>) {
  const added: { token: string; word: string; head: string; length: number; uses: number }[] = []
  const removedBy = new Map<number, string[]>()
  for (const [token, { uses, word }] of delta) {
    if (uses > 0) added.push({ token, word, head: [...token][0] ?? '', length: [...token].length, uses })
    else if (uses < 0) removedBy.set(-uses, [...(removedBy.get(-uses) ?? []), token])
  }
  for (const batch of chunks(added, 200)) {
    await trx
      .insertInto('searchWord')
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('token')
          .doUpdateSet({ uses: sql<number>`${sql.ref('searchWord.uses')} + ${sql.ref('excluded.uses')}` }),
      )
      .execute()
  }
  const gone: string[] = []
  for (const [by, tokens] of removedBy) {
    for (const batch of chunks(tokens, CHUNK)) {
      await trx
        .updateTable('searchWord')
        .set({ uses: sql<number>`${sql.ref('uses')} - ${by}` })
        .where('token', 'in', batch)
        .execute()
      gone.push(...batch)
    }
  }
  for (const batch of chunks(gone, CHUNK)) {
    await trx.deleteFrom('searchWord').where('token', 'in', batch).where('uses', '<=', 0).execute()
  }
}

/**
 * Writes the index rows of records that have none: at start-up, for a database made before the
 * search existed or changed by a tool that does not index (the migration cannot run the live
 * normaliser). Rounds of CHUNK records, each in its own write transaction. Returns how many.
 */
export async function fillMissingSearchIndex(db: Db): Promise<number> {
  let total = 0
  for (let raced = 0; ;) {
    let done: number
    try {
      done = await writeTransaction(db, async (trx) => {
        const missing = await trx
          .selectFrom('structure')
          .leftJoin('searchIndex', 'searchIndex.structureId', 'structure.id')
          .select('structure.id')
          .where('searchIndex.structureId', 'is', null)
          .limit(CHUNK)
          .execute()
        await reindexProducts(
          trx,
          missing.map((r) => r.id),
        )
        return missing.length
      })
    } catch (error) {
      // Another process starting at the same time indexed the same records first: look again.
      if ((error as { code?: string }).code === '23505' && ++raced < 5) continue
      throw error
    }
    total += done
    if (done < CHUNK) return total
  }
}
