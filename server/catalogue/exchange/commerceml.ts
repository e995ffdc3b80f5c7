// CommerceML 2.x files as 1C's «Обмен с сайтом» sends them (docs/decisions/032-1c-exchange.md;
// research: the 1C exchange's verified facts). Read as a stream by saxes, which expands no entity
// and fetches nothing: a document with a DTD is refused outright. Elements are matched by local
// name, so `urn:1C.ru:commerceml_2` and `…commerceml_210`, prefixed or not, and schema versions 2.05
// to 2.10 read alike; Windows-1251 files are decoded by their XML declaration.
//
// The reader keeps what the import needs and nothing else: a small tree per record (a group tree, a
// property, a product, a price type, an offer), turned into plain objects as soon as it closes and
// handed on (exchange-staging.ts keeps them). The file is read a part at a time, never whole.
import iconv from 'iconv-lite'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { yieldingEvery } from '../import-claim'
import {
  RECORDS,
  field,
  groupsOf,
  local,
  offerOf,
  orderChangeOf,
  productOf,
  propertyOf,
  type CmlGroup,
  type CmlOffer,
  type CmlOrderChange,
  type CmlProduct,
  type CmlProperty,
  type Node,
} from './commerceml-records'

export type { Refusal } from './commerceml-checks'
export type { CmlGroup, CmlOffer, CmlOrderChange, CmlProduct, CmlProperty } from './commerceml-records'

export interface CmlPriceType {
  readonly id: string
  readonly name: string
  readonly currency: string | null
}

/** What a file is, from its root's children */
export interface CmlHeader {
  /** 'catalogue' for an import file, 'offers' for an offers/prices/rests file */
  readonly kind: 'catalogue' | 'offers' | 'other'
  /** `СодержитТолькоИзменения`: false means the whole catalogue (a full sync) */
  readonly onlyChanges: boolean
}

/** One record of the file, as soon as it closes */
export type CmlItem =
  | { readonly kind: 'group'; readonly group: CmlGroup }
  | { readonly kind: 'property'; readonly property: CmlProperty }
  | { readonly kind: 'product'; readonly product: CmlProduct }
  | { readonly kind: 'priceType'; readonly priceType: CmlPriceType }
  | { readonly kind: 'offer'; readonly offer: CmlOffer }
  | { readonly kind: 'order'; readonly order: CmlOrderChange }

/** A file that is not CommerceML the exchange can read; the message is Russian, for 1C's operator. */
export class CmlError extends Error {
  override name = 'CmlError'
}

const FILE_CHUNK = 64 * 1024
const YIELD_EVERY_MS = 20
/** Records handed on at once */
const TAKE_EVERY = 200

/** A decoder of the file's bytes: UTF-8 (with or without a BOM) or what its XML declaration names. */
function decoderFor(head: Buffer) {
  const declared = /^\uFEFF?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    head
      .subarray(0, 200)
      .toString('latin1')
      .replace(/^\xEF\xBB\xBF/, ''),
  )
  const encoding = declared?.[1].toLowerCase() ?? 'utf-8'
  if (!iconv.encodingExists(encoding)) throw new CmlError(`Кодировка файла «${declared?.[1] ?? ''}» не поддерживается`)
  // A part may end inside a character: the decoder keeps its bytes for the next part.
  return iconv.getDecoder(encoding)
}

/**
 * Reads a CommerceML file from its parts (a part at a time: memory is a part's, not the file's) and
 * hands its records to `take` as they close, a few hundred at a time; other requests get their turn
 * every few milliseconds. Returns what the file is. Throws CmlError for a file it cannot read.
 */
export async function parseCommerceMl(
  parts: AsyncIterable<Buffer>,
  take: (items: CmlItem[]) => Promise<void>,
): Promise<CmlHeader> {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const stack: string[] = []
  let building: Node[] = []
  const outcome: { failure: Error | null } = { failure: null }
  let rootSeen = false
  let kind: CmlHeader['kind'] = 'other'
  let onlyChanges = true
  let pending: CmlItem[] = []

  const finish = (node: Node) => {
    switch (node.name) {
      case 'Группы': {
        const groups: CmlGroup[] = []
        groupsOf(node, null, groups)
        for (const group of groups) pending.push({ kind: 'group', group })
        break
      }
      case 'Свойство': {
        const property = propertyOf(node)
        if (property) pending.push({ kind: 'property', property })
        break
      }
      case 'Товар': {
        const product = productOf(node)
        if (product) pending.push({ kind: 'product', product })
        break
      }
      case 'ТипЦены': {
        const id = field(node, 'Ид')
        if (id) {
          const priceType = { id, name: field(node, 'Наименование') ?? id, currency: field(node, 'Валюта') }
          pending.push({ kind: 'priceType', priceType })
        }
        break
      }
      case 'Предложение': {
        const offer = offerOf(node)
        if (offer) pending.push({ kind: 'offer', offer })
        break
      }
      case 'Документ':
        pending.push({ kind: 'order', order: orderChangeOf(node) })
        break
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

  let decoder: ReturnType<typeof iconv.getDecoder> | null = null
  const breathe = yieldingEvery(YIELD_EVERY_MS)
  const feed = async (text: string) => {
    for (let offset = 0; offset < text.length && outcome.failure === null; offset += FILE_CHUNK) {
      parser.write(text.slice(offset, offset + FILE_CHUNK))
      if (pending.length >= TAKE_EVERY) {
        const items = pending
        pending = []
        await take(items)
      }
      await breathe()
    }
  }
  for await (const part of parts) {
    decoder ??= decoderFor(part)
    await feed(decoder.write(part))
    if (outcome.failure !== null) break
  }
  if (decoder && outcome.failure === null) await feed(decoder.end() ?? '')
  if (outcome.failure === null) parser.close()
  if (outcome.failure) throw outcome.failure
  if (!rootSeen) throw new CmlError('Файл пуст')
  building = []
  if (pending.length > 0) await take(pending)
  return { kind, onlyChanges }
}
