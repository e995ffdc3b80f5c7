// What «Товары» changes (issue 33): a price, an old price or the availability edited in a row, and
// the actions on a selection (publish, hide, withdraw, move, set availability, change the price by
// a percentage or an amount, delete; a product with variants has its variants' prices or availability
// changed, decision 043). Each goes through the write door; an action on many products
// is sent by the screen in batches (src/admin ACTION_BATCH ids a request), each one short transaction, so the
// site stays fast and the screen shows the progress. Every batch adds to the action's entry in the
// catalogue's audit log: who, what, how many.
import type { Availability } from '../../data/schema'
import type { Db } from '../../data/db'
import { HttpError } from '../../http/http-error'
import { deleteRecordAndParts, loadDeletable, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import type { WriteDoor } from '../write-door'
import {
  checkProductPrices,
  loadProductRows,
  setProductFields,
  type ProductFields,
  type ProductRow,
} from '../products/product-rows'
import { changedPrice, type PriceChange } from './price-change'
import { followsVariants, hasVariants, variantFieldsOf } from './variant-table'
import { setVariantFields } from '../products/variant-rows'

export type ProductAction =
  | { readonly kind: 'publish' | 'hide' | 'withdraw' | 'delete' }
  | { readonly kind: 'move'; readonly sectionId: number }
  | { readonly kind: 'availability'; readonly availability: Availability }
  | ({ readonly kind: 'price'; readonly keepOldPrice: boolean } & PriceChange)

export const ACTION_TITLES: Readonly<Record<ProductAction['kind'], string>> = {
  publish: 'Опубликовать',
  hide: 'Скрыть (черновик)',
  withdraw: 'Снять с публикации',
  delete: 'Удалить',
  move: 'Перенести в раздел',
  availability: 'Изменить наличие',
  price: 'Изменить цену',
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
    const products = [...(await loadProductRows(unit.trx, ids)).values()]
    if (action.kind === 'availability' || action.kind === 'price') {
      // A product with variants changes its variants, and follows them (decision 043).
      const variants = await variantFieldsOf(unit.trx, ids)
      let changed = 0
      for (const [productId, list] of variants) {
        const sets = list.map((v) => ({ id: v.id, set: fieldsAfter(v, action) }))
        const some = sets.filter((change) => Object.keys(change.set).length > 0)
        if (some.length > 0 && (await setVariantFields(unit, productId, some)).size > 0) changed++
      }
      // The products' own fields: the repository decides what search and the pages are told.
      return (
        changed +
        (await setProductFields(
          unit,
          products
            .filter((product) => !variants.has(product.id))
            .map((product) => ({ id: product.id, set: fieldsAfter(product, action) })),
        ))
      )
    }
    let changed = 0
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
      }
      changed++
    }
    return changed
  })
}

/**
 * How many of the products an action would change, before it runs (nothing written): a price
 * change skips the products without a price and those it leaves as they are.
 */
export async function countChanges(db: Db, ids: readonly number[], action: ProductAction): Promise<number> {
  const products = [...(await loadProductRows(db, ids)).values()]
  if (action.kind !== 'availability' && action.kind !== 'price') return products.length
  const variants = await variantFieldsOf(db, ids)
  const changes = (row: PricedRow) =>
    Object.entries(fieldsAfter(row, action)).some(([field, value]) => row[field as keyof PricedRow] !== value)
  return products.filter((product) => {
    const own = variants.get(product.id)
    return own ? own.some(changes) : changes(product)
  }).length
}

/** What a price or availability action reads of a product or a variant */
type PricedRow = Pick<ProductRow, 'price' | 'oldPrice' | 'availability'>

/** What an availability or price action changes of one product or variant; nothing when it stays. */
function fieldsAfter(
  product: PricedRow,
  action: Extract<ProductAction, { kind: 'availability' | 'price' }>,
): ProductFields {
  if (action.kind === 'availability') {
    return product.availability === action.availability ? {} : { availability: action.availability }
  }
  if (product.price === null) return {}
  const price = changedPrice(product.price, action)
  const oldPrice = action.keepOldPrice ? (product.price > price ? product.price : null) : product.oldPrice
  // An old price no longer above the price would not show: it goes.
  return { price, oldPrice: oldPrice !== null && oldPrice > price ? oldPrice : null }
}

export interface InlineChange {
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
}

/**
 * A row's edit in place: all of it or nothing, a Russian reason when the prices disagree or the
 * product's variants set them.
 */
export async function editProduct(door: WriteDoor, id: number, change: InlineChange): Promise<void> {
  await door.write(async (unit) => {
    if (!(await loadProductRows(unit.trx, [id])).has(id)) {
      throw new HttpError(404, `Товар с id = ${id} не найден`, 'not_found')
    }
    // Its price and availability are its variants' (decision 043): set there, never lost here.
    if (await hasVariants(unit, id)) followsVariants(change)
    await setProductFields(unit, [{ id, set: change }])
    const problem = await checkProductPrices(unit.trx, id)
    if (problem) {
      const field = change.oldPrice !== undefined ? 'oldPrice' : 'price'
      throw new HttpError(400, problem, 'validation_failed', { [field]: problem })
    }
  })
}
