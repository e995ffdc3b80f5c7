// What «Товары» changes (issue 33): a price, an old price or the availability edited in a row, and
// the actions on a selection (publish, hide, withdraw, move, set availability, change the price by
// a percentage or an amount, delete). Each goes through the write door; an action on many products
// is sent by the screen in batches (src/admin ACTION_BATCH ids a request), each one short transaction, so the
// site stays fast and the screen shows the progress. Every batch adds to the action's entry in the
// catalogue's audit log: who, what, how many.
import type { Transaction } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import type { ContentWrite } from '../../content/content-write'
import { deleteRecordAndParts, loadDeletable, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import type { WriteDoor } from '../write-door'
import { checkProductPrices } from './product-store'
const MAX_RUBLES = 2_000_000_000

export type ProductAction =
  | { readonly kind: 'publish' | 'hide' | 'withdraw' | 'delete' }
  | { readonly kind: 'move'; readonly sectionId: number }
  | { readonly kind: 'availability'; readonly availability: Availability }
  | { readonly kind: 'price'; readonly percent?: number; readonly amount?: number; readonly keepOldPrice: boolean }

export const ACTION_TITLES: Readonly<Record<ProductAction['kind'], string>> = {
  publish: 'Опубликовать',
  hide: 'Скрыть (черновик)',
  withdraw: 'Снять с публикации',
  delete: 'Удалить',
  move: 'Перенести в раздел',
  availability: 'Изменить наличие',
  price: 'Изменить цену',
}

type Trx = Transaction<Database>

async function productsOf(trx: Trx, ids: readonly number[]) {
  return trx
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select(['structure.id', 'structure.urlFull', 'product.price', 'product.oldPrice', 'product.availability'])
    .where('structure.id', 'in', ids)
    .where('structure.typeId', '=', 'product')
    .execute()
}

/** A new price: by a percentage or an amount, rounded to whole rubles, never below 0. */
export function changedPrice(price: number, action: { percent?: number; amount?: number }): number {
  const next = action.percent !== undefined ? price * (1 + action.percent / 100) : price + (action.amount ?? 0)
  return Math.min(MAX_RUBLES, Math.max(0, Math.round(next)))
}

async function touchUpdated(unit: ContentWrite, ids: readonly number[]) {
  if (ids.length === 0) return
  await unit.trx.updateTable('structure').set({ updatedAt: unit.at }).where('id', 'in', ids).execute()
}

/** One batch of an action; returns how many products it changed. */
export async function applyAction(door: WriteDoor, ids: readonly number[], action: ProductAction): Promise<number> {
  if (action.kind === 'move') {
    const section = await door.db
      .selectFrom('structure')
      .select('typeId')
      .where('id', '=', action.sectionId)
      .executeTakeFirst()
    if (!section || section.typeId === 'product') {
      throw new HttpError(400, 'Раздел, в который переносятся товары, не найден', 'validation_failed', {
        sectionId: 'Выберите раздел',
      })
    }
  }
  return door.write(async (unit) => {
    const products = await productsOf(unit.trx, ids)
    // A price or the availability changes no word search finds: the batch is not reindexed.
    const words = action.kind !== 'price' && action.kind !== 'availability'
    await unit.touch(
      products.map((p) => p.id),
      { words },
    )
    let changed = 0
    // A product's own fields changed: its record's updatedAt, one statement for the batch.
    const updated: number[] = []
    for (const product of products) {
      switch (action.kind) {
        case 'publish':
          await updateRecord(unit, product.id, { published: 1, status: null })
          break
        case 'hide':
          await updateRecord(unit, product.id, { published: 0 })
          break
        case 'withdraw':
          await updateRecord(unit, product.id, { status: 410 })
          break
        case 'delete': {
          const record = await loadDeletable(unit.trx, product.id)
          if (record && record.children === 0) await deleteRecordAndParts(unit, product.id, record.urlFull)
          else continue
          break
        }
        case 'move':
          await moveRecord(unit, { id: product.id, parentId: action.sectionId, keepUrl: false })
          break
        case 'availability':
          if (product.availability === action.availability) continue
          await unit.trx
            .updateTable('product')
            .set({ availability: action.availability })
            .where('structureId', '=', product.id)
            .execute()
          updated.push(product.id)
          break
        case 'price': {
          if (product.price === null) continue
          const price = changedPrice(product.price, action)
          const oldPrice = action.keepOldPrice ? (product.price > price ? product.price : null) : product.oldPrice
          await unit.trx
            .updateTable('product')
            // An old price no longer above the price would not show: it goes.
            .set({ price, oldPrice: oldPrice !== null && oldPrice > price ? oldPrice : null })
            .where('structureId', '=', product.id)
            .execute()
          updated.push(product.id)
          break
        }
      }
      changed++
    }
    await touchUpdated(unit, updated)
    return changed
  })
}

export interface InlineChange {
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
}

/** A row's edit in place: all of it or nothing, a Russian reason when the prices disagree. */
export async function editProduct(door: WriteDoor, id: number, change: InlineChange): Promise<void> {
  await door.write(async (unit) => {
    const [product] = await productsOf(unit.trx, [id])
    if (!product) throw new HttpError(404, `Товар с id = ${id} не найден`, 'not_found')
    await unit.touch([id], { words: false })
    await unit.trx.updateTable('product').set(change).where('structureId', '=', id).execute()
    await touchUpdated(unit, [id])
    const problem = await checkProductPrices(unit.trx, id)
    if (problem) {
      const field = change.oldPrice !== undefined ? 'oldPrice' : 'price'
      throw new HttpError(400, problem, 'validation_failed', { [field]: problem })
    }
  })
}
