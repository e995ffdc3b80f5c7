// The editor's «Варианты» (docs/decisions/043-variants.md): a product's variants with their option
// values and pictures, and a variant added, edited, reordered or removed. Every write is one unit of the write
// door through the variant repository (products/variant-rows.ts), which makes the product's price,
// old price and availability follow and tells the door what changed (the page, search, the feed, the
// page cache). Checked first, all or nothing: an артикул another product or variant has, a title
// another variant of the product has, an old price not above the price, a picture not uploaded with
// the write, and a variant 1C sent of a product from 1C, whose title, артикул and options are 1C's,
// and its picture while the owner lets 1C overwrite pictures (decision 044).
import type { Db } from '../../data/db'
import type { ContentWrite } from '../../content/content-write'
import type { OneCField } from '../../../src/catalogue/one-c-fields'
import type { VariantList } from '../../../src/admin/admin-variants'
import { ONE_C_VARIANT, VARIANT_IMAGE_UPLOAD } from '../../../src/catalogue/variant-fields'
import { formatMoney, rublesNumber } from '../../../src/format/money'
import { HttpError } from '../../http/http-error'
import { writeVariants } from '../products/variant-rows'
import { loadProductRows } from '../products/product-rows'
import { loadVariants, type VariantRow } from '../products/product-row-reads'
import type { WriteDoor } from '../write-door'
import { fromOneC } from './one-c-mark'
import type { VariantDraft, VariantOptionInput } from './variant-input'

type Queryable = Db | ContentWrite['trx']

const refuse = (field: string, message: string): never => {
  throw new HttpError(400, message, 'validation_failed', { [field]: message })
}
const productGone = (id: number) => new HttpError(404, `Товар с id = ${id} не найден`, 'not_found')
const variantGone = (id: number, variantId: number) =>
  new HttpError(404, `Вариант с id = ${variantId} у товара с id = ${id} не найден`, 'not_found')

/** The option rows of a product's variants, in their order. */
async function optionRows(db: Queryable, productId: number) {
  return db
    .selectFrom('productProperty')
    .select(['variantId', 'name', 'value', 'unit'])
    .where('structureId', '=', productId)
    .where('variantId', 'is not', null)
    .orderBy('sort')
    .orderBy('id')
    .execute()
}

/** A product's variants as the editor shows them; 404 for what is no product. */
export async function editorVariants(db: Db, productId: number, overwrite: readonly OneCField[]): Promise<VariantList> {
  if (!(await loadProductRows(db, [productId])).has(productId)) throw productGone(productId)
  const oneC = (await fromOneC(db, [productId])).has(productId)
  const owned = (['price', 'stock', 'images'] as const).filter((field) => overwrite.includes(field))
  const rows = await optionRows(db, productId)
  const names = new Map<string, { name: string; unit: string | null }>()
  for (const row of rows) if (!names.has(row.name)) names.set(row.name, { name: row.name, unit: row.unit })
  const variants = (await loadVariants(db, [productId])).get(productId) ?? []
  return {
    fromOneC: oneC,
    options: [...names.values()],
    variants: variants.map((v) => ({
      id: v.id,
      title: v.title,
      article: v.article,
      price: v.price === null ? null : rublesNumber(v.price),
      oldPrice: v.oldPrice === null ? null : rublesNumber(v.oldPrice),
      availability: v.availability,
      image: v.image,
      oneC: v.externalId !== null && oneC ? owned : null,
      options: rows.filter((o) => o.variantId === v.id).map(({ name, value, unit }) => ({ name, value, unit })),
    })),
  }
}

/** An артикул no other product or variant has (nor the product itself: its variants' rows are apart). */
async function checkArticle(unit: ContentWrite, productId: number, variantId: number | null, article: string) {
  const product = await unit.trx
    .selectFrom('product')
    .innerJoin('structure', 'structure.id', 'product.structureId')
    .select(['structure.id', 'structure.title'])
    .where('product.article', '=', article)
    .executeTakeFirst()
  if (product) {
    refuse(
      'article',
      product.id === productId
        ? `Артикул «${article}» — артикул самого товара: у варианта должен быть свой`
        : `Артикул «${article}» уже есть у товара «${product.title}»`,
    )
  }
  const variant = await unit.trx
    .selectFrom('productVariant')
    .innerJoin('structure', 'structure.id', 'productVariant.productId')
    .select(['productVariant.title', 'structure.title as productTitle'])
    .where('productVariant.article', '=', article)
    .where('productVariant.id', '!=', variantId ?? 0)
    .executeTakeFirst()
  if (variant)
    refuse('article', `Артикул «${article}» уже есть у варианта «${variant.title}» товара «${variant.productTitle}»`)
}

/** What a write's check needs beside the draft */
export interface DraftContext {
  /** The stored path of the picture uploaded with the write (multipart), if one was */
  readonly uploaded?: string | null
  /** The fields the owner lets 1C overwrite («Настройки», decision 044) */
  readonly overwrite: readonly OneCField[]
}

/** The draft checked against what is stored: артикул, title, picture, 1C's fields, the old price above the price. */
async function checkDraft(
  unit: ContentWrite,
  productId: number,
  stored: readonly VariantRow[],
  row: VariantRow | undefined,
  draft: VariantDraft,
  context: DraftContext,
) {
  const options = draft.options && (await optionRows(unit.trx, productId)).filter((o) => o.variantId === row?.id)
  const image = draft.image !== undefined && draft.image !== (row?.image ?? null)
  // A picture is a file uploaded with this write; a path sent back unchanged is no change.
  if (image && draft.image !== null && draft.image !== context.uploaded) refuse('image', VARIANT_IMAGE_UPLOAD)
  if (row && row.externalId !== null && (await fromOneC(unit.trx, [productId])).has(productId)) {
    if (draft.title !== undefined && draft.title !== row.title) refuse('title', ONE_C_VARIANT.title)
    if (draft.article !== undefined && draft.article !== row.article) refuse('article', ONE_C_VARIANT.article)
    if (options && !sameOptions(options, draft.options!)) refuse('options', ONE_C_VARIANT.options)
    if (image && context.overwrite.includes('images')) refuse('image', ONE_C_VARIANT.image)
  }
  const title = draft.title !== undefined && draft.title !== row?.title ? draft.title : null
  if (title !== null && stored.some((v) => v.id !== row?.id && v.title === title)) {
    refuse('title', `У товара уже есть вариант «${title}»`)
  }
  if (draft.article && draft.article !== row?.article)
    await checkArticle(unit, productId, row?.id ?? null, draft.article)
  const price = draft.price !== undefined ? draft.price : (row?.price ?? null)
  const old = draft.oldPrice !== undefined ? draft.oldPrice : (row?.oldPrice ?? null)
  const field = draft.oldPrice !== undefined ? 'oldPrice' : 'price'
  if (old !== null && price === null) refuse(field, 'Старая цена указывается только вместе с ценой')
  if (old !== null && price !== null && old <= price) {
    refuse(field, `Старая цена должна быть больше цены (${formatMoney(price)})`)
  }
}

const sameOptions = (a: readonly VariantOptionInput[], b: readonly VariantOptionInput[]) =>
  a.length === b.length && a.every((o, i) => o.name === b[i].name && o.value === b[i].value)

/** The product's variants in the unit, or 404 for what is no product. */
async function storedVariants(unit: ContentWrite, productId: number): Promise<VariantRow[]> {
  if (!(await loadProductRows(unit.trx, [productId])).has(productId)) throw productGone(productId)
  return (await loadVariants(unit.trx, [productId])).get(productId) ?? []
}

/** A new variant of the product, after its others; returns its id. */
export async function addVariant(
  door: WriteDoor,
  productId: number,
  draft: VariantDraft,
  context: DraftContext,
): Promise<number> {
  return door.write(async (unit) => {
    const stored = await storedVariants(unit, productId)
    await checkDraft(unit, productId, stored, undefined, draft, context)
    await writeVariants(unit, productId, [draft], false)
    const made = await unit.trx
      .selectFrom('productVariant')
      .select('id')
      .where('productId', '=', productId)
      .where('title', '=', draft.title!)
      .executeTakeFirstOrThrow()
    return made.id
  })
}

/** A variant's fields as the draft says («Товары»' edit in place, the editor's form); returns its title. */
export async function editVariant(
  door: WriteDoor,
  productId: number,
  variantId: number,
  draft: VariantDraft,
  context: DraftContext,
): Promise<string> {
  return door.write(async (unit) => {
    const stored = await storedVariants(unit, productId)
    const row = stored.find((v) => v.id === variantId)
    if (!row) throw variantGone(productId, variantId)
    await checkDraft(unit, productId, stored, row, draft, context)
    await writeVariants(unit, productId, [{ ...draft, id: variantId }], false)
    return draft.title ?? row.title
  })
}

/** A variant removed with its option rows; the product's price follows the others. Returns its title. */
export async function removeVariant(door: WriteDoor, productId: number, variantId: number): Promise<string> {
  return door.write(async (unit) => {
    const stored = await storedVariants(unit, productId)
    const row = stored.find((v) => v.id === variantId)
    if (!row) throw variantGone(productId, variantId)
    const rest = stored.filter((v) => v.id !== variantId).map((v) => ({ id: v.id }))
    await writeVariants(unit, productId, rest, true)
    return row.title
  })
}

/** The product's variants in the order given: every one of them, each once (else 409: the list changed). */
export async function reorderVariants(door: WriteDoor, productId: number, ids: readonly number[]): Promise<void> {
  await door.write(async (unit) => {
    const stored = await storedVariants(unit, productId)
    const same = ids.length === stored.length && new Set(ids).size === ids.length
    if (!same || !stored.every((v) => ids.includes(v.id))) {
      throw new HttpError(409, 'Варианты товара изменились: обновите страницу и попробуйте снова', 'conflict')
    }
    await writeVariants(
      unit,
      productId,
      ids.map((id) => ({ id })),
      true,
    )
  })
}
