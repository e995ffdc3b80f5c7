// A lead's lines (issue 44, item 3; docs/decisions/041-request-list.md): what the visitor asked
// for, copied from the catalogue at the moment the lead is stored, in the lead's own transaction.
// Each line keeps the product's id, title, артикул, unit price and the line sum as they were; the
// lead keeps the total (null unless every line has a price). Nothing here is ever updated: a
// later price change, rename or deletion of the product leaves a sent lead as it was.
import type { Db } from '../../data/db'
import { ownState } from '../../content/visibility'
import { clampText, oneLine } from '../../../src/validation/plain-text'

/** A line as asked for: the product and its quantity (a journaled lead may also know its title). */
export interface RequestedLine {
  readonly productId: number
  readonly quantity: number
  /** The product's variant (docs/decisions/043-variants.md) */
  readonly variantId?: number
  /** The product's title when the lead was journaled: kept if the product is gone by replay */
  readonly title?: string
}

/** A line as the lead keeps it. Prices in whole kopecks; null: «по запросу». */
export interface LeadLine {
  readonly productId: number
  /** The variant asked for and its title then; null: the product itself */
  readonly variantId?: number | null
  readonly variantTitle?: string | null
  readonly title: string
  readonly article: string | null
  readonly price: number | null
  readonly quantity: number
  readonly sum: number | null
}

type Reader = Pick<Db, 'selectFrom'>

interface ProductNow {
  readonly id: number
  readonly title: string
  readonly urlFull: string
  readonly article: string | null
  readonly price: number | null
  /** Whether the public sees it: a product, published and not withdrawn, under public records only */
  readonly shown: boolean
}

/** The products' title, артикул, price and whether the public sees them now, by id. */
export async function productsNow(db: Reader, ids: readonly number[]): Promise<Map<number, ProductNow>> {
  const found = new Map<number, ProductNow>()
  if (ids.length === 0) return found
  const rows = await db
    .selectFrom('structure')
    // A record typed product without its product row shows as one without a price.
    .leftJoin('product', 'product.structureId', 'structure.id')
    .select([
      'structure.id',
      'structure.title',
      'structure.urlFull',
      'structure.typeId',
      'structure.published',
      'structure.status',
      'structure.visible',
      'product.article',
      'product.price',
    ])
    .where('structure.id', 'in', [...ids])
    .execute()
  for (const { typeId, published, status, visible, ...row } of rows) {
    const shown = typeId === 'product' && Boolean(visible) && ownState({ published, status }) === 'public'
    found.set(row.id, { ...row, shown })
  }
  return found
}

interface VariantNow {
  readonly productId: number
  readonly title: string
  readonly article: string | null
  readonly price: number | null
}

/** The variants' title, артикул and price now, by id. */
export async function variantsNow(db: Reader, ids: readonly number[]): Promise<Map<number, VariantNow>> {
  const found = new Map<number, VariantNow>()
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return found
  const rows = await db
    .selectFrom('productVariant')
    .select(['id', 'productId', 'title', 'article', 'price'])
    .where('id', 'in', wanted)
    .execute()
  for (const { id, ...row } of rows) found.set(id, row)
  return found
}

/** The variant a line names, when it is one of its product's. */
export function variantOf(
  line: Pick<RequestedLine, 'productId' | 'variantId'>,
  variants: ReadonlyMap<number, VariantNow>,
) {
  const variant = line.variantId ? variants.get(line.variantId) : undefined
  return variant?.productId === line.productId ? variant : undefined
}

/**
 * The lines that do not name a public product (unknown, a draft, withdrawn, under a hidden section,
 * or not a product), by the position of the line in the request.
 */
export function refusedLines(lines: readonly RequestedLine[], products: ReadonlyMap<number, ProductNow>): number[] {
  return lines.flatMap((line, index) => (products.get(line.productId)?.shown ? [] : [index]))
}

/** The products (with their variant) named twice, by the later line's position. */
export function repeatedLines(lines: readonly RequestedLine[]): number[] {
  const seen = new Set<string>()
  return lines.flatMap((line, index) => {
    const key = `${line.productId}v${line.variantId ?? 0}`
    return seen.has(key) ? [index] : (seen.add(key), [])
  })
}

/** A line's title as the owner reads it: the product's, and its variant's after a comma (decision 043). */
export function lineTitle(line: Pick<LeadLine, 'title' | 'variantTitle'>): string {
  return line.variantTitle ? `${line.title}, ${line.variantTitle}` : line.title
}

/** The lines' total when every line has a price; null otherwise or without lines. */
export function totalOf(lines: readonly Pick<LeadLine, 'sum'>[]): number | null {
  if (lines.length === 0 || lines.some((line) => line.sum === null)) return null
  return lines.reduce((total, line) => total + line.sum!, 0)
}

/**
 * Whether the lines' sums and total stay exact as JavaScript numbers (2^53 kopecks, about
 * 90 trillion rubles): a request past it is refused rather than stored rounded.
 */
export function exactSums(lines: readonly Pick<LeadLine, 'price' | 'quantity'>[]): boolean {
  let total = 0n
  for (const line of lines) if (line.price !== null) total += BigInt(line.price) * BigInt(line.quantity)
  return total <= BigInt(Number.MAX_SAFE_INTEGER)
}

/** The copy the lead keeps: today's title, артикул and price, or the journaled title of a product now gone. */
export function snapshotLines(
  requested: readonly RequestedLine[],
  products: ReadonlyMap<number, ProductNow>,
  variants: ReadonlyMap<number, VariantNow> = new Map(),
): LeadLine[] {
  return requested.map((line) => {
    const product = products.get(line.productId)
    // A variant's own price and артикул (its product's артикул when it has none).
    const variant = variantOf(line, variants)
    const price = variant ? variant.price : (product?.price ?? null)
    const article = variant?.article ?? product?.article
    return {
      productId: line.productId,
      variantId: variant ? line.variantId! : null,
      variantTitle: variant ? clampText(oneLine(variant.title), 250) : null,
      title: clampText(oneLine(product?.title ?? line.title ?? `Товар № ${line.productId}`), 500),
      article: article ? clampText(oneLine(article), 200) : null,
      price,
      quantity: line.quantity,
      sum: price === null ? null : price * line.quantity,
    }
  })
}

/** Writes the lines of a new lead (inside its transaction). */
export async function insertLines(trx: Pick<Db, 'insertInto'>, feedbackId: number, lines: readonly LeadLine[]) {
  if (lines.length === 0) return
  await trx
    .insertInto('leadLine')
    .values(lines.map((line, position) => ({ feedbackId, position, ...line })))
    .execute()
}

/** The lines of these leads, in their order, by lead id (a lead without lines is absent). */
export async function linesOf(db: Reader, feedbackIds: readonly number[]): Promise<Map<number, LeadLine[]>> {
  const byLead = new Map<number, LeadLine[]>()
  for (let i = 0; i < feedbackIds.length; i += 500) {
    const rows = await db
      .selectFrom('leadLine')
      .select(['feedbackId', 'productId', 'variantId', 'variantTitle', 'title', 'article', 'price', 'quantity', 'sum'])
      .where('feedbackId', 'in', feedbackIds.slice(i, i + 500))
      .orderBy('feedbackId')
      .orderBy('position')
      .execute()
    for (const { feedbackId, ...line } of rows) {
      const list = byLead.get(feedbackId) ?? []
      list.push(line)
      byLead.set(feedbackId, list)
    }
  }
  return byLead
}
