// CommerceML's records as the exchange keeps them (docs/decisions/032-1c-exchange.md): a small tree
// per record (a group tree, a property, a product, an offer), read by local name, made into plain
// objects. commerceml.ts builds the trees from the stream; commerceml-checks.ts refuses what the site cannot take.
import { cmlDecimal, cmlPrice, quantityProblem } from './commerceml-checks'
export interface CmlGroup {
  readonly id: string
  readonly name: string
  readonly parentId: string | null
}

export interface CmlProperty {
  readonly id: string
  readonly name: string
  /** The Справочник: ИдЗначения → Значение */
  readonly values: ReadonlyMap<string, string>
}

export interface CmlProduct {
  readonly id: string
  readonly name: string
  readonly article: string | null
  readonly description: string | null
  readonly vendor: string | null
  /** Ид of its groups; the first is where it goes */
  readonly groups: readonly string[]
  /** Paths inside the exchange: `import_files/ab/<guid>.jpg` */
  readonly pictures: readonly string[]
  /** Ид of the property → its value: a text, or an ИдЗначения of the property's Справочник */
  readonly properties: readonly { readonly id: string; readonly value: string }[]
  /** 1C marked it deleted (Статус «Удален», ПометкаУдаления) */
  readonly deleted: boolean
}

export interface CmlOffer {
  /** `<product Ид>` or `<product Ид>#<characteristic Ид>` */
  readonly id: string
  readonly name: string | null
  /** Prices in kopecks by price type Ид; absent in a rests-only file */
  readonly prices: ReadonlyMap<string, number> | null
  /** The quantity in stock; null when the file does not say (a prices-only file) */
  readonly quantity: number | null
  /** Values the site does not take (commerceml-checks.ts): of a price type's Ид, or of the quantity (null) */
  readonly refused: readonly { readonly priceType: string | null; readonly why: string }[]
  /** A characteristic's own артикул and its «ХарактеристикиТовара» (decision 043); absent in files staged before */
  readonly article?: string | null
  readonly characteristics?: readonly { readonly name: string; readonly value: string }[]
  /** A characteristic's pictures, paths inside the exchange as a product's (`import_files/…`); absent in files staged before */
  readonly pictures?: readonly string[]
}

/** An order 1C sends back (`type=sale&mode=file`): what 1C says of its state now */
export interface CmlOrderChange {
  /** The site's Ид of the order (`vitrina-lead-N`), when 1C kept it */
  readonly id: string | null
  readonly number: string | null
  /** «Статус заказа»: 1C's or the site's status name («[F] Выполнен», «Отгружен») */
  readonly status: string | null
  /** «Проведен» */
  readonly posted: boolean
  /** «Отменен» */
  readonly cancelled: boolean
  /** «Дата отгрузки» (YYYY-MM-DD), when 1C gave one */
  readonly shippedOn: string | null
}

export interface Node {
  readonly name: string
  readonly attributes: Record<string, string>
  readonly children: Node[]
  text: string
}

export const local = (name: string) => {
  const colon = name.indexOf(':')
  return colon === -1 ? name : name.slice(colon + 1)
}

/** The element's children of a local name. */
export const all = (node: Node | undefined, name: string): Node[] => node?.children.filter((c) => c.name === name) ?? []
export const one = (node: Node | undefined, name: string): Node | undefined =>
  node?.children.find((c) => c.name === name)
export const textOf = (node: Node | undefined): string | null => {
  const value = node?.text.trim()
  return value ? value : null
}
export const field = (node: Node | undefined, name: string) => textOf(one(node, name))

/** Where a record starts: its local name and its parent's. */
export const RECORDS: Record<string, readonly string[]> = {
  Группы: ['Классификатор'],
  Свойство: ['Свойства'],
  Товар: ['Товары'],
  ТипЦены: ['ТипыЦен'],
  Предложение: ['Предложения'],
  Документ: ['КоммерческаяИнформация', 'Контейнер'],
}

/** The groups of a `Группы` tree in document order (a parent before its children), without recursion. */
export function groupsOf(root: Node, parentId: string | null, out: CmlGroup[]): void {
  const pending: { node: Node; parentId: string | null }[] = [{ node: root, parentId }]
  while (pending.length > 0) {
    const { node, parentId: parent } = pending.pop()!
    const next: typeof pending = []
    for (const group of all(node, 'Группа')) {
      const id = field(group, 'Ид')
      if (!id) continue
      out.push({ id, name: field(group, 'Наименование') ?? id, parentId: parent })
      for (const nested of all(group, 'Группы')) next.push({ node: nested, parentId: id })
    }
    // Reversed onto the stack, so they are taken in document order.
    for (let i = next.length - 1; i >= 0; i--) pending.push(next[i])
  }
}

export function propertyOf(node: Node): CmlProperty | null {
  const id = field(node, 'Ид')
  if (!id) return null
  const values = new Map<string, string>()
  for (const variants of all(node, 'ВариантыЗначений')) {
    for (const entry of all(variants, 'Справочник')) {
      const valueId = field(entry, 'ИдЗначения')
      const value = field(entry, 'Значение')
      if (valueId && value) values.set(valueId, value)
    }
  }
  return { id, name: field(node, 'Наименование') ?? id, values }
}

/** A product's or an offer's «Картинка» paths, in order. */
const picturesOf = (node: Node) => all(node, 'Картинка').flatMap((p) => textOf(p) ?? [])

export function productOf(node: Node): CmlProduct | null {
  const id = field(node, 'Ид')
  if (!id) return null
  const status = node.attributes['Статус'] ?? field(node, 'Статус')
  const marked = field(node, 'ПометкаУдаления')
  const maker = one(node, 'Изготовитель')
  return {
    id,
    name: field(node, 'Наименование') ?? '',
    article: field(node, 'Артикул'),
    description: field(node, 'Описание'),
    vendor: field(maker, 'Наименование') ?? textOf(maker),
    groups: all(one(node, 'Группы'), 'Ид').flatMap((g) => textOf(g) ?? []),
    pictures: picturesOf(node),
    properties: all(one(node, 'ЗначенияСвойств'), 'ЗначенияСвойства').flatMap((p) => {
      const propertyId = field(p, 'Ид')
      const value = field(p, 'Значение')
      return propertyId && value ? [{ id: propertyId, value }] : []
    }),
    deleted: status === 'Удален' || marked === 'true',
  }
}

export function offerOf(node: Node): CmlOffer | null {
  const id = field(node, 'Ид')
  if (!id) return null
  const refused: { priceType: string | null; why: string }[] = []
  const quantityOf = (raw: string | null | undefined): number[] => {
    const value = cmlDecimal(raw)
    if (value === undefined) return []
    const why = quantityProblem(raw!, value)
    if (why !== null) refused.push({ priceType: null, why })
    return why === null ? [value!] : []
  }
  const priceList = one(node, 'Цены')
  let prices: Map<string, number> | null = null
  if (priceList) {
    prices = new Map()
    for (const price of all(priceList, 'Цена')) {
      const typeId = field(price, 'ИдТипаЦены')
      const raw = field(price, 'ЦенаЗаЕдиницу')
      if (!typeId || cmlDecimal(raw) === undefined) continue
      const read = cmlPrice(raw!)
      if ('kopecks' in read) prices.set(typeId, read.kopecks)
      else refused.push({ priceType: typeId, why: read.why })
    }
  }
  const direct = field(node, 'Количество')
  let quantity: number | null = direct === null ? null : (quantityOf(direct)[0] ?? null)
  if (direct === null) {
    // By warehouse: <Склад ИдСклада=… КоличествоНаСкладе=…/>, or a rests file's Остатки/Остаток.
    const stores = all(node, 'Склад').flatMap((s) => quantityOf(s.attributes['КоличествоНаСкладе']))
    const rests = all(one(node, 'Остатки'), 'Остаток').flatMap((rest) => {
      const count = field(rest, 'Количество')
      if (count !== null) return quantityOf(count)
      return all(rest, 'Склад').flatMap((s) => quantityOf(field(s, 'Количество')))
    })
    const known = [...stores, ...rests]
    if (known.length > 0) quantity = known.reduce((sum, n) => sum + n, 0)
  }
  const characteristics = all(one(node, 'ХарактеристикиТовара'), 'ХарактеристикаТовара').flatMap((c) => {
    const [name, value] = [field(c, 'Наименование'), field(c, 'Значение')]
    return name && value ? [{ name, value }] : []
  })
  return {
    id,
    name: field(node, 'Наименование'),
    prices,
    quantity,
    refused,
    article: field(node, 'Артикул'),
    characteristics,
    pictures: picturesOf(node),
  }
}

/**
 * Reads a CommerceML file, yielding to the event loop every few milliseconds so a large file does
 * not hold up the visitors' requests. Throws CmlError for what is not a well-formed CommerceML file.
 */

/** An order document 1C sent back: its Ид, number and the requisites that tell its state. */
export function orderChangeOf(node: Node): CmlOrderChange {
  const requisites = new Map<string, string>()
  for (const value of all(one(node, 'ЗначенияРеквизитов'), 'ЗначениеРеквизита')) {
    const name = field(value, 'Наименование')
    const text = field(value, 'Значение')
    if (name && text) requisites.set(name.toLowerCase(), text)
  }
  const yes = (name: string) => requisites.get(name)?.toLowerCase() === 'true'
  // 1C writes an empty date as the year 1.
  const shipped = /^(\d{4})-(\d{2})-(\d{2})/.exec(requisites.get('дата отгрузки') ?? '')
  return {
    id: field(node, 'Ид'),
    number: field(node, 'Номер'),
    status: requisites.get('статус заказа') ?? null,
    posted: yes('проведен'),
    cancelled: yes('отменен') || yes('пометкаудаления') || yes('пометка удаления'),
    shippedOn: shipped && shipped[1] !== '0001' ? `${shipped[1]}-${shipped[2]}-${shipped[3]}` : null,
  }
}
