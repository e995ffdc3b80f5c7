// A 1C file parsed once (issue 43): the first `import` call of a file reads it a part at a time
// (commerceml.ts) and keeps its records as staged items, a short transaction per few hundred, with
// other requests and other processes' writes let in between; every later step, in whichever
// process, reads the next items by position. Nothing reads or parses a whole file per call, and a
// step's memory is its items'. Staging is also where 1C's file is held to the catalogue's bounds
// (commerceml-checks.ts): an Ид sent twice keeps its last item (in the first one's place), groups
// nest at most MAX_GROUP_DEPTH deep, and the offers of one product (its characteristics) are one item.
import { type Db } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import { letOthersWrite, UNTIL_THE_ANSWER } from '../import-claim'
import { parseCommerceMl, type CmlGroup, type CmlHeader, type CmlItem, type CmlOffer } from './commerceml'
import type { CmlPriceType, CmlProduct, CmlProperty } from './commerceml'
import { boundedGroups, itemName, type Refusal } from './commerceml-checks'
import { dropStaged, storedFile } from './exchange-files'

/** Items per staging transaction */
const BATCH = 500

/**
 * A string of its own. What the parser gives is a slice of the text of the file's part it was read
 * from, and V8 keeps a slice's whole parent alive: an Ид and a name kept for every product until the
 * file is staged kept every part's text (a 60 MB import.xml: 300+ MB of the process's memory).
 */
const copied = (text: string): string => Buffer.from(text, 'utf8').toString('utf8')

export type StagedKind = 'group' | 'product' | 'offer'

/** What staging found in a file, kept in the import's state */
export interface StagedFile extends CmlHeader {
  /** How many items of each kind, at positions 0 … count − 1 */
  readonly counts: Record<StagedKind, number>
}

/** What a file's first step needs beside its items: the classifier's properties and price types, the refusals */
export interface StagedExtras {
  readonly properties: CmlProperty[]
  readonly priceTypes: CmlPriceType[]
  readonly groupAlias: Record<string, string>
  readonly refused: Refusal[]
}

type Offers = {
  id: string
  name: string | null
  prices: [string, number][] | null
  quantity: number | null
  refused: CmlOffer['refused']
}[]

const toJson = (offers: readonly CmlOffer[]): Offers =>
  offers.map((o) => ({ ...o, prices: o.prices ? [...o.prices] : null }))
const fromJson = (offers: Offers): CmlOffer[] =>
  offers.map((o) => ({ ...o, prices: o.prices ? new Map(o.prices) : null }))

/** Stages the session's file `name` (any earlier staging of it dropped); null when 1C did not send it. */
export async function stageFile(
  db: Db,
  sessionId: string,
  name: string,
): Promise<{ staged: StagedFile; extras: StagedExtras } | null> {
  const file = await storedFile(db, sessionId, name)
  if (file === null) return null
  await dropStaged(db, sessionId, name)
  const counts: Record<StagedKind, number> = { group: 0, product: 0, offer: 0 }
  /**
   * Ид → position of what is staged: a second item with the Ид takes the first one's place. Only the
   * position: a name for each of 110,000 products was 15 MB more of the heap until the file was staged.
   */
  const seen = { product: new Map<string, number>(), offer: new Map<string, number>() }
  const groups: CmlGroup[] = []
  const extras: StagedExtras = { properties: [], priceTypes: [], groupAlias: {}, refused: [] }
  /** The rows of the next transaction by kind and position; rows written earlier and changed again */
  let rows = new Map<string, { kind: StagedKind; pos: number; itemId: string; payload: unknown }>()
  let changed = new Map<string, { kind: StagedKind; pos: number; itemId: string; payload: unknown }>()

  const flush = async () => {
    if (rows.size === 0 && changed.size === 0) return
    const [fresh, again] = [[...rows.values()], [...changed.values()]]
    rows = new Map()
    changed = new Map()
    const start = performance.now()
    await writeTransaction(
      db,
      async (trx) => {
        if (fresh.length > 0) {
          await trx
            .insertInto('exchangeStaged')
            .values(fresh.map((r) => ({ sessionId, file: name, ...r, payload: JSON.stringify(r.payload) })))
            .execute()
        }
        for (const r of again) {
          await trx
            .updateTable('exchangeStaged')
            .set({ payload: JSON.stringify(r.payload) })
            .where('sessionId', '=', sessionId)
            .where('file', '=', name)
            .where('kind', '=', r.kind)
            .where('pos', '=', r.pos)
            .execute()
        }
      },
      UNTIL_THE_ANSWER,
    )
    await letOthersWrite(db, performance.now() - start)
  }
  /** A staged item's payload as the next transaction will write it (read back when written earlier). */
  const current = async (kind: StagedKind, pos: number): Promise<unknown> => {
    const key = `${kind}:${pos}`
    const pending = rows.get(key) ?? changed.get(key)
    if (pending) return pending.payload
    const row = await db
      .selectFrom('exchangeStaged')
      .select('payload')
      .where('sessionId', '=', sessionId)
      .where('file', '=', name)
      .where('kind', '=', kind)
      .where('pos', '=', pos)
      .executeTakeFirstOrThrow()
    return JSON.parse(row.payload)
  }
  const put = (kind: StagedKind, pos: number, itemId: string, payload: unknown, fresh: boolean) => {
    const key = `${kind}:${pos}`
    if (fresh || rows.has(key)) rows.set(key, { kind, pos, itemId, payload })
    else changed.set(key, { kind, pos, itemId, payload })
  }

  const takeProduct = async (product: CmlProduct) => {
    const before = seen.product.get(product.id)
    if (before !== undefined) {
      const first = (await current('product', before)) as CmlProduct
      extras.refused.push({
        what: itemName('Товар', product.id, first.name),
        why: 'Ид повторяется в файле: взят последний товар с этим Ид',
      })
      put('product', before, product.id, product, false)
      return
    }
    seen.product.set(copied(product.id), counts.product)
    put('product', counts.product++, product.id, product, true)
  }
  const takeOffer = async (offer: CmlOffer) => {
    const productId = offer.id.split('#')[0]
    const pos = seen.offer.get(productId)
    if (pos === undefined) {
      seen.offer.set(copied(productId), counts.offer)
      put('offer', counts.offer++, productId, toJson([offer]), true)
      return
    }
    const list = fromJson((await current('offer', pos)) as Offers)
    const same = list.findIndex((o) => o.id === offer.id)
    if (same >= 0) {
      extras.refused.push({
        what: itemName('Предложение', offer.id, list[same].name),
        why: 'Ид повторяется в файле: взято последнее предложение с этим Ид',
      })
      list.splice(same, 1)
    }
    put('offer', pos, productId, toJson([...list, offer]), false)
  }
  const take = async (items: CmlItem[]) => {
    for (const item of items) {
      if (item.kind === 'group') groups.push(item.group)
      else if (item.kind === 'property') extras.properties.push(item.property)
      else if (item.kind === 'priceType') extras.priceTypes.push(item.priceType)
      else if (item.kind === 'product') await takeProduct(item.product)
      else if (item.kind === 'offer') await takeOffer(item.offer)
      if (rows.size + changed.size >= BATCH) await flush()
    }
  }

  const header = await parseCommerceMl(file.parts(), take)
  // Groups last: all of them are needed to know how deep each one sits.
  const bounded = boundedGroups(groups, extras.refused)
  Object.assign(extras.groupAlias, bounded.alias)
  for (const group of bounded.groups) {
    put('group', counts.group++, group.id, group, true)
    if (rows.size >= BATCH) await flush()
  }
  await flush()
  return { staged: { ...header, counts }, extras }
}

/** The staged items of a file from position `from` on, at most `limit`, in the file's order. */
export async function stagedItems(
  db: Db,
  sessionId: string,
  file: string,
  kind: 'group',
  from: number,
  limit: number,
): Promise<CmlGroup[]>
export async function stagedItems(
  db: Db,
  sessionId: string,
  file: string,
  kind: 'product',
  from: number,
  limit: number,
): Promise<CmlProduct[]>
export async function stagedItems(
  db: Db,
  sessionId: string,
  file: string,
  kind: 'offer',
  from: number,
  limit: number,
): Promise<CmlOffer[][]>
export async function stagedItems(
  db: Db,
  sessionId: string,
  file: string,
  kind: StagedKind,
  from: number,
  limit: number,
): Promise<unknown[]> {
  const rows = await db
    .selectFrom('exchangeStaged')
    .select('payload')
    .where('sessionId', '=', sessionId)
    .where('file', '=', file)
    .where('kind', '=', kind)
    .where('pos', '>=', from)
    .orderBy('pos')
    .limit(limit)
    .execute()
  return rows.map((row) => {
    const payload: unknown = JSON.parse(row.payload)
    return kind === 'offer' ? fromJson(payload as Offers) : payload
  })
}
