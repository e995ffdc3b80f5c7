// CommerceML 2.x files as 1C's «Обмен с сайтом» sends them (docs/decisions/032-1c-exchange.md;
// research: the 1C exchange's verified facts). Read as a stream by saxes, which expands no entity
// and fetches nothing: a document with a DTD is refused outright. Elements are matched by local
// name, so `urn:1C.ru:commerceml_2` and `…commerceml_210`, prefixed or not, and schema versions 2.05
// to 2.10 read alike; Windows-1251 files are decoded by their XML declaration.
//
// The reader keeps what the import needs and nothing else: a small tree per record (a group tree, a
// property, a product, a price type, an offer), turned into plain objects as soon as it closes.
import iconv from 'iconv-lite'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import {
  RECORDS,
  field,
  groupsOf,
  local,
  offerOf,
  productOf,
  propertyOf,
  type CmlGroup,
  type CmlOffer,
  type CmlProduct,
  type CmlProperty,
  type Node,
} from './commerceml-records'
import { boundedGroups, itemName, lastOfEach, type Refusal } from './commerceml-checks'

export type { Refusal } from './commerceml-checks'
export type { CmlGroup, CmlOffer, CmlProduct, CmlProperty } from './commerceml-records'

export interface CmlPriceType {
  readonly id: string
  readonly name: string
  readonly currency: string | null
}

export interface CmlDocument {
  /** 'catalogue' for an import file, 'offers' for an offers/prices/rests file */
  readonly kind: 'catalogue' | 'offers' | 'other'
  /** `СодержитТолькоИзменения`: false means the whole catalogue (a full sync) */
  readonly onlyChanges: boolean
  readonly groups: readonly CmlGroup[]
  readonly properties: readonly CmlProperty[]
  readonly products: readonly CmlProduct[]
  readonly priceTypes: readonly CmlPriceType[]
  readonly offers: readonly CmlOffer[]
  /** A group nested past the depth the catalogue takes → the group whose section takes its goods */
  readonly groupAlias: Readonly<Record<string, string>>
  /** What was not taken as 1C sent it (commerceml-checks.ts): duplicates, groups too deep */
  readonly refused: readonly Refusal[]
}

/** A file that is not CommerceML the exchange can read; the message is Russian, for 1C's operator. */
export class CmlError extends Error {
  override name = 'CmlError'
}

const FILE_CHUNK = 64 * 1024
const YIELD_EVERY_MS = 20

/** The file's text: UTF-8 (with or without a BOM) or what its XML declaration names. */
export function decodeXml(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1')
  const declared = /^\uFEFF?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    head.replace(/^\xEF\xBB\xBF/, ''),
  )
  const encoding = declared?.[1].toLowerCase() ?? 'utf-8'
  if (encoding === 'utf-8' || encoding === 'utf8') {
    const text = bytes.toString('utf8')
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
  if (!iconv.encodingExists(encoding)) throw new CmlError(`Кодировка файла «${declared?.[1] ?? ''}» не поддерживается`)
  return iconv.decode(bytes, encoding)
}

export async function readCommerceMl(bytes: Buffer): Promise<CmlDocument> {
  const text = decodeXml(bytes)
  const parser = new SaxesParser({ xmlns: false, position: true })
  const stack: string[] = []
  let building: Node[] = []
  const outcome: { failure: Error | null } = { failure: null }
  let rootSeen = false
  let kind: CmlDocument['kind'] = 'other'
  let onlyChanges = true
  const groups: CmlGroup[] = []
  const properties: CmlProperty[] = []
  const products: CmlProduct[] = []
  const priceTypes: CmlPriceType[] = []
  const offers: CmlOffer[] = []

  const finish = (node: Node) => {
    switch (node.name) {
      case 'Группы':
        groupsOf(node, null, groups)
        break
      case 'Свойство': {
        const property = propertyOf(node)
        if (property) properties.push(property)
        break
      }
      case 'Товар': {
        const product = productOf(node)
        if (product) products.push(product)
        break
      }
      case 'ТипЦены': {
        const id = field(node, 'Ид')
        if (id) priceTypes.push({ id, name: field(node, 'Наименование') ?? id, currency: field(node, 'Валюта') })
        break
      }
      case 'Предложение': {
        const offer = offerOf(node)
        if (offer) offers.push(offer)
        break
      }
    }
  }

  parser.on('doctype', () => {
    outcome.failure ??= new CmlError('Файл содержит DTD: такие файлы обмен не читает')
  })
  parser.on('error', (error) => {
    outcome.failure ??= new CmlError(`Файл не является правильным XML: ${error.message}`)
  })
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = local(tag.name)
    if (!rootSeen) {
      rootSeen = true
      if (name !== 'КоммерческаяИнформация') {
        outcome.failure ??= new CmlError('Это не файл CommerceML: корневой элемент не «КоммерческаяИнформация»')
      }
    }
    const parent = stack[stack.length - 1]
    stack.push(name)
    if (
      (name === 'Каталог' || name === 'ПакетПредложений' || name === 'ИзмененияПакетаПредложений') &&
      building.length === 0
    ) {
      kind = name === 'Каталог' ? 'catalogue' : 'offers'
      const attribute = Object.entries(tag.attributes).find(([key]) => local(key) === 'СодержитТолькоИзменения')
      if (attribute) onlyChanges = String(attribute[1]).trim() !== 'false'
      if (name === 'ИзмененияПакетаПредложений') onlyChanges = true
    }
    if (name === 'Классификатор' && kind === 'other') kind = 'catalogue'
    if (building.length > 0 || (parent !== undefined && RECORDS[name]?.includes(parent))) {
      const attributes: Record<string, string> = {}
      for (const [key, value] of Object.entries(tag.attributes)) attributes[local(key)] = String(value)
      const node: Node = { name, attributes, children: [], text: '' }
      building[building.length - 1]?.children.push(node)
      building.push(node)
    }
  })
  parser.on('text', (value) => {
    const node = building[building.length - 1]
    if (node) node.text += value
  })
  parser.on('cdata', (value) => {
    const node = building[building.length - 1]
    if (node) node.text += value
  })
  parser.on('closetag', () => {
    stack.pop()
    const node = building.pop()
    if (node && building.length === 0) finish(node)
  })

  let last = Date.now()
  for (let offset = 0; offset < text.length && outcome.failure === null; offset += FILE_CHUNK) {
    parser.write(text.slice(offset, offset + FILE_CHUNK))
    if (Date.now() - last >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      last = Date.now()
    }
  }
  if (outcome.failure === null) parser.close()
  if (outcome.failure) throw outcome.failure
  if (!rootSeen) throw new CmlError('Файл пуст')
  building = []
  const refused: Refusal[] = []
  const bounded = boundedGroups(groups, refused)
  return {
    kind,
    onlyChanges,
    groups: bounded.groups,
    groupAlias: bounded.alias,
    properties,
    products: lastOfEach(
      products,
      (p) => itemName('Товар', p.id, p.name),
      'Ид повторяется в файле: взят последний товар с этим Ид',
      refused,
    ),
    priceTypes,
    offers: lastOfEach(
      offers,
      (o) => itemName('Предложение', o.id, o.name),
      'Ид повторяется в файле: взято последнее предложение с этим Ид',
      refused,
    ),
    refused,
  }
}

/** Parsed files, kept for the next call of the same import in this process (the largest cost of a call). */
const parsedCache = new Map<string, CmlDocument>()

/** The session's file `name` parsed, once per process while its import runs. */
export async function parsedOnce(sessionId: string, name: string, bytes: Buffer): Promise<CmlDocument> {
  const key = `${sessionId}\u0000${name}\u0000${bytes.length}`
  const hit = parsedCache.get(key)
  if (hit) return hit
  const doc = await readCommerceMl(bytes)
  parsedCache.set(key, doc)
  while (parsedCache.size > 2) parsedCache.delete(parsedCache.keys().next().value!)
  return doc
}

/** The session's parsed files are no longer needed (its exchange ended or failed). */
export function forgetParsed(sessionId: string): void {
  for (const key of parsedCache.keys()) if (key.startsWith(`${sessionId}\u0000`)) parsedCache.delete(key)
}
