// A structure record as the editor's form holds it, and the conversions to and from the write API
// (docs/contract.md §3): one write carries the record, its part and its lists, all or nothing.
import { editableRubles, parseMoney, rublesNumber } from '../../../../src/format/money'
import { INDEX_PART_SELECT, PRODUCT_PART_FIELDS } from '../../../../src/site/record-parts'

export type TypeId = 'index' | 'section' | 'product' | 'page'

export const TYPE_LABELS: Readonly<Record<TypeId, string>> = {
  index: 'Главная (сайт или лендинг)',
  section: 'Раздел каталога',
  product: 'Товар',
  page: 'Текстовая страница',
}

/** A stored media path, a file chosen for upload, or no image. */
export type ImageValue = string | File | null

export interface SlideDraft {
  key: string
  image: ImageValue
  title: string
}

export interface AdvantageDraft {
  key: string
  image: ImageValue
  title: string
  description: string
}

export interface GalleryDraft {
  key: string
  image: ImageValue
  alt: string
}

export interface PropertyDraft {
  key: string
  group: string
  name: string
  value: string
  unit: string
}

export type Availability = 'in_stock' | 'on_order' | 'out_of_stock'

export const AVAILABILITY_OPTIONS: ReadonlyArray<{ value: Availability; label: string }> = [
  { value: 'in_stock', label: 'В наличии' },
  { value: 'on_order', label: 'Под заказ' },
  { value: 'out_of_stock', label: 'Нет в наличии' },
]

export interface ProductDraft {
  article: string
  price: string
  oldPrice: string
  vendor: string
  availability: Availability
  featured: boolean
  description: string
}

export interface RecordDraft {
  id: number | null
  parentId: number | null
  typeId: TypeId
  title: string
  urlFull: string
  published: boolean
  status: number | null
  metaTitle: string
  metaDescription: string
  metaRobots: string
  content: string
  index: { logo: ImageValue; tel: string; telText: string; description: string; copyright: string }
  product: ProductDraft
  /** The product's gallery: the first picture is the main one */
  images: GalleryDraft[]
  properties: PropertyDraft[]
  sliderItems: SlideDraft[]
  advantages: AdvantageDraft[]
}

/** What the editor reads of a record: every field it edits, the part and the lists. */
export function recordQuery(id: number) {
  return {
    where: { id },
    select: {
      id: true,
      parentId: true,
      typeId: true,
      title: true,
      urlFull: true,
      sort: true,
      published: true,
      status: true,
      metaTitle: true,
      metaDescription: true,
      metaRobots: true,
      content: true,
      index: INDEX_PART_SELECT,
      product: { select: PRODUCT_PART_FIELDS },
      images: { select: { id: true, image: true, alt: true } },
      properties: { select: { id: true, groupName: true, name: true, value: true, unit: true } },
      sliderItems: { select: { id: true, image: true, title: true } },
      advantages: { select: { id: true, image: true, title: true, description: true } },
    },
  }
}

let keys = 0
/** A React key for a list item that has no id yet. */
export function newKey(): string {
  keys += 1
  return `new-${keys}`
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')
const image = (value: unknown): ImageValue => (typeof value === 'string' && value !== '' ? value : null)

function emptyProduct(): ProductDraft {
  return {
    article: '',
    price: '',
    oldPrice: '',
    vendor: '',
    availability: 'in_stock',
    featured: false,
    description: '',
  }
}

/** A price from the API (rubles) as the owner edits it: «1299,90». */
const rubles = (value: unknown) => (typeof value === 'number' ? editableRubles(value) : '')

export function emptyDraft(typeId: TypeId, parentId: number | null, parentUrl: string): RecordDraft {
  return {
    id: null,
    parentId,
    typeId,
    title: '',
    urlFull: parentUrl.endsWith('/') ? parentUrl : `${parentUrl}/`,
    published: true,
    status: null,
    metaTitle: '',
    metaDescription: '',
    metaRobots: '',
    content: '',
    index: { logo: null, tel: '', telText: '', description: '', copyright: '' },
    product: emptyProduct(),
    images: [],
    properties: [],
    sliderItems: [],
    advantages: [],
  }
}

export function draftFromRecord(record: Record<string, any>): RecordDraft {
  const index = record.index ?? {}
  const product = record.product ?? {}
  return {
    id: record.id,
    parentId: record.parentId ?? null,
    typeId: record.typeId,
    title: text(record.title),
    urlFull: text(record.urlFull),
    published: Boolean(record.published),
    status: record.status ?? null,
    metaTitle: text(record.metaTitle),
    metaDescription: text(record.metaDescription),
    metaRobots: text(record.metaRobots),
    content: text(record.content),
    index: {
      logo: image(index.logo),
      tel: text(index.tel),
      telText: text(index.telText),
      description: text(index.description),
      copyright: text(index.copyright),
    },
    product: {
      article: text(product.article),
      price: rubles(product.price),
      oldPrice: rubles(product.oldPrice),
      vendor: text(product.vendor),
      availability: AVAILABILITY_OPTIONS.some((o) => o.value === product.availability)
        ? product.availability
        : 'in_stock',
      featured: Boolean(product.featured),
      description: text(product.description),
    },
    images: (record.images ?? []).map((g: any) => ({ key: `g${g.id}`, image: image(g.image), alt: text(g.alt) })),
    properties: (record.properties ?? []).map((p: any) => ({
      key: `p${p.id}`,
      group: text(p.groupName),
      name: text(p.name),
      value: text(p.value),
      unit: text(p.unit),
    })),
    sliderItems: (record.sliderItems ?? []).map((s: any) => ({
      key: `s${s.id}`,
      image: image(s.image),
      title: text(s.title),
    })),
    advantages: (record.advantages ?? []).map((a: any) => ({
      key: `a${a.id}`,
      image: image(a.image),
      title: text(a.title),
      description: text(a.description),
    })),
  }
}

/** Empty optional text is stored as null, as the API's nullable fields expect. */
const orNull = (value: string) => (value.trim() === '' ? null : value)

/**
 * A price as typed («1 299,90», «1299.9 ₽»): rubles for the API, read exactly. A number with more
 * decimals goes as that number and anything else as typed, so the API's Russian message («Не более
 * 2 знаков после запятой», «должно быть числом») is shown next to the field.
 */
function price(value: string): number | string | null {
  if (value.trim() === '') return null
  const read = parseMoney(value)
  if (read.ok) return rublesNumber(read.kopecks)
  const decimal = value.replace(/[\s\u00a0]/g, '').replace(',', '.')
  return /^-?\d{1,12}(\.\d+)?$/.test(decimal) ? Number(decimal) : value
}

/**
 * The write API's values for this draft: the record, and the part and lists its type has. A product
 * whose variants set its price, old price and availability (`followsVariants`) is sent without them.
 */
export function writeValues(draft: RecordDraft, followsVariants = false): Record<string, unknown> {
  const values: Record<string, unknown> = {
    ...(draft.id === null ? { typeId: draft.typeId, parentId: draft.parentId } : { id: draft.id }),
    title: draft.title.trim(),
    urlFull: draft.urlFull.trim(),
    published: draft.published,
    metaTitle: orNull(draft.metaTitle),
    metaDescription: orNull(draft.metaDescription),
    metaRobots: orNull(draft.metaRobots),
    content: orNull(draft.content),
  }
  if (draft.typeId === 'index') {
    const { logo, tel, telText, description, copyright } = draft.index
    values.index = {
      logo,
      tel: orNull(tel),
      telText: orNull(telText),
      description: orNull(description),
      copyright: orNull(copyright),
    }
    values.sliderItems = draft.sliderItems.map((s) => ({ image: s.image, title: orNull(s.title) }))
    values.advantages = draft.advantages.map((a) => ({
      image: a.image,
      title: a.title.trim(),
      description: orNull(a.description),
    }))
  }
  if (draft.typeId === 'product') {
    const { article, vendor, availability, featured, description } = draft.product
    // The gallery carries the main image: the API copies its first picture to product.image.
    values.product = {
      article: orNull(article),
      ...(followsVariants
        ? {}
        : { price: price(draft.product.price), oldPrice: price(draft.product.oldPrice), availability }),
      vendor: orNull(vendor),
      featured,
      description: orNull(description),
    }
    values.images = draft.images.map((g) => ({ image: g.image, alt: orNull(g.alt) }))
    values.properties = draft.properties.map((p) => ({
      groupName: orNull(p.group),
      name: p.name.trim(),
      value: p.value.trim(),
      unit: orNull(p.unit),
    }))
  }
  return values
}

/** A draft with the product's price, old price and availability of `fresh` (as its variants made them). */
export const withProductOf =
  ({ product: { price, oldPrice, availability } }: RecordDraft) =>
  (draft: RecordDraft | null): RecordDraft | null =>
    draft && { ...draft, product: { ...draft.product, price, oldPrice, availability } }
