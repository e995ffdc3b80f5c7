// The 1C side of «Обмен с сайтом», for tests and the exchange bench: CommerceML files written to the
// schema (both namespace spellings, UTF-8 or Windows-1251) and a client that speaks the protocol as
// 1C does: Basic auth, the cookie, init, each file in `file_limit` parts (zipped or not), `import`
// repeated until it is no longer `progress`, complete; and the orders' query and success.
import iconv from 'iconv-lite'
import JSZip from 'jszip'
import { AUTH } from '../api/helpers'

export const LOGIN = 'exchange1c'
export const PASSWORD = 'secret-1c-password'
export const EXCHANGE_ENV = { EXCHANGE_1C_LOGIN: LOGIN, EXCHANGE_1C_PASSWORD: PASSWORD }

/**
 * Switches «Обмен с 1С» on as the owner does in the back office (the app was built with ADMIN_TOKEN
 * and EXCHANGE_ENV): by default prices of the type «Розничная», no stock «Нет в наличии».
 */
export async function enableExchange(
  app: {
    inject(options: { method: 'PUT'; url: string; headers: Record<string, string>; payload: object }): Promise<{
      statusCode: number
      body: string
    }>
  },
  settings: { priceType?: string; oldPriceType?: string; zeroStock?: 'out_of_stock' | 'on_order' } = {},
): Promise<void> {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/admin/exchange',
    headers: AUTH,
    payload: { enabled: true, priceType: 'Розничная', zeroStock: 'out_of_stock', ...settings },
  })
  if (res.statusCode !== 200) throw new Error(`«Обмен с 1С» not switched on: ${res.body}`)
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const el = (name: string, value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : `<${name}>${escape(String(value))}</${name}>`

export interface Group {
  id: string
  name: string
  children?: Group[]
}

export interface Property {
  id: string
  name: string
  /** A Справочник: ИдЗначения → Значение */
  values?: Record<string, string>
}

export interface Product {
  id: string
  name: string
  article?: string
  description?: string
  vendor?: string
  groups?: string[]
  pictures?: string[]
  /** Ид of the property → a text or an ИдЗначения */
  properties?: Record<string, string>
  deleted?: boolean
}

export interface Offer {
  id: string
  name?: string
  /** Price type Ид → price */
  prices?: Record<string, number>
  quantity?: number
  /** Split exchanges: the quantity per warehouse in a rests file */
  rests?: number
  /** A characteristic's own артикул and its «ХарактеристикиТовара»: name → value */
  article?: string
  characteristics?: Record<string, string>
  /** A characteristic's pictures: paths inside the exchange (`import_files/…`), as a product's */
  pictures?: string[]
}

interface FileOptions {
  /** `urn:1C.ru:commerceml_2` (default) or `…_210` */
  namespace?: '2' | '210'
  version?: string
  /** false: a full sync */
  onlyChanges?: boolean
  /** Written in Windows-1251 instead of UTF-8 */
  cp1251?: boolean
  /** A prefix for every element (`cml:`): a namespace-qualified document */
  prefix?: string
}

function document(body: string, options: FileOptions): Buffer {
  const ns = options.namespace === '210' ? 'urn:1C.ru:commerceml_210' : 'urn:1C.ru:commerceml_2'
  const encoding = options.cp1251 ? 'windows-1251' : 'UTF-8'
  let xml =
    `<?xml version="1.0" encoding="${encoding}"?>\n` +
    `<КоммерческаяИнформация xmlns="${ns}" ВерсияСхемы="${options.version ?? '2.08'}" ДатаФормирования="2026-11-26T10:00:00">` +
    body +
    '</КоммерческаяИнформация>'
  if (options.prefix) {
    const p = options.prefix
    xml = xml.replace(/<(\/?)([А-Яа-яЁё][\wА-Яа-яЁё]*)/g, `<$1${p}:$2`).replace(`xmlns="${ns}"`, `xmlns:${p}="${ns}"`)
  }
  return options.cp1251 ? iconv.encode(xml, 'win1251') : Buffer.from(xml, 'utf8')
}

function groupXml(group: Group): string {
  const nested = group.children?.length ? `<Группы>${group.children.map(groupXml).join('')}</Группы>` : ''
  return `<Группа>${el('Ид', group.id)}${el('Наименование', group.name)}${nested}</Группа>`
}

export function importXml(
  catalogue: { groups?: Group[]; properties?: Property[]; products: Product[] },
  options: FileOptions = {},
): Buffer {
  const properties = (catalogue.properties ?? [])
    .map(
      (p) =>
        `<Свойство>${el('Ид', p.id)}${el('Наименование', p.name)}` +
        (p.values
          ? `${el('ТипЗначений', 'Справочник')}<ВариантыЗначений>${Object.entries(p.values)
              .map(([id, value]) => `<Справочник>${el('ИдЗначения', id)}${el('Значение', value)}</Справочник>`)
              .join('')}</ВариантыЗначений>`
          : el('ТипЗначений', 'Строка')) +
        '</Свойство>',
    )
    .join('')
  const products = catalogue.products
    .map(
      (p) =>
        `<Товар${p.deleted ? ' Статус="Удален"' : ''}>${el('Ид', p.id)}${el('Артикул', p.article)}${el('Наименование', p.name)}` +
        '<БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>' +
        (p.groups?.length ? `<Группы>${p.groups.map((g) => el('Ид', g)).join('')}</Группы>` : '') +
        el('Описание', p.description) +
        (p.pictures ?? []).map((pic) => el('Картинка', pic)).join('') +
        (p.vendor
          ? `<Изготовитель>${el('Ид', `maker-${p.vendor}`)}${el('Наименование', p.vendor)}</Изготовитель>`
          : '') +
        (p.properties
          ? `<ЗначенияСвойств>${Object.entries(p.properties)
              .map(([id, value]) => `<ЗначенияСвойства>${el('Ид', id)}${el('Значение', value)}</ЗначенияСвойства>`)
              .join('')}</ЗначенияСвойств>`
          : '') +
        '</Товар>',
    )
    .join('')
  const groups = catalogue.groups?.length ? `<Группы>${catalogue.groups.map(groupXml).join('')}</Группы>` : ''
  return document(
    `<Классификатор>${el('Ид', 'classifier-1')}${el('Наименование', 'Классификатор (Основной каталог товаров)')}${groups}` +
      (properties ? `<Свойства>${properties}</Свойства>` : '') +
      '</Классификатор>' +
      `<Каталог СодержитТолькоИзменения="${options.onlyChanges === false ? 'false' : 'true'}">${el('Ид', 'catalogue-1')}${el('ИдКлассификатора', 'classifier-1')}${el('Наименование', 'Основной каталог товаров')}<Товары>${products}</Товары></Каталог>`,
    options,
  )
}

export function offersXml(
  pack: { priceTypes?: { id: string; name: string }[]; offers: Offer[] },
  options: FileOptions = {},
): Buffer {
  const types = pack.priceTypes?.length
    ? `<ТипыЦен>${pack.priceTypes.map((t) => `<ТипЦены>${el('Ид', t.id)}${el('Наименование', t.name)}${el('Валюта', 'RUB')}</ТипЦены>`).join('')}</ТипыЦен>`
    : ''
  const offers = pack.offers
    .map(
      (o) =>
        `<Предложение>${el('Ид', o.id)}${el('Артикул', o.article)}${el('Наименование', o.name)}` +
        (o.pictures ?? []).map((pic) => el('Картинка', pic)).join('') +
        (o.characteristics
          ? `<ХарактеристикиТовара>${Object.entries(o.characteristics)
              .map(
                ([n, v]) => `<ХарактеристикаТовара>${el('Наименование', n)}${el('Значение', v)}</ХарактеристикаТовара>`,
              )
              .join('')}</ХарактеристикиТовара>`
          : '') +
        (o.prices
          ? `<Цены>${Object.entries(o.prices)
              .map(
                ([type, price]) =>
                  `<Цена>${el('Представление', `${price} RUB за шт`)}${el('ИдТипаЦены', type)}${el('ЦенаЗаЕдиницу', price.toFixed(2))}${el('Валюта', 'RUB')}${el('Единица', 'шт')}${el('Коэффициент', 1)}</Цена>`,
              )
              .join('')}</Цены>`
          : '') +
        el('Количество', o.quantity) +
        (o.rests !== undefined
          ? `<Остатки><Остаток><Склад>${el('Ид', 'store-1')}${el('Количество', o.rests)}</Склад></Остаток></Остатки>`
          : '') +
        '</Предложение>',
    )
    .join('')
  return document(
    `<ПакетПредложений СодержитТолькоИзменения="${options.onlyChanges === false ? 'false' : 'true'}">${el('Ид', 'pack-1')}${el('Наименование', 'Пакет предложений')}${el('ИдКаталога', 'catalogue-1')}${el('ИдКлассификатора', 'classifier-1')}${types}<Предложения>${offers}</Предложения></ПакетПредложений>`,
    options,
  )
}

export async function zipOf(files: Record<string, Buffer>): Promise<Buffer> {
  const zip = new JSZip()
  for (const [name, bytes] of Object.entries(files)) zip.file(name, bytes)
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

export interface Answer {
  status: number
  lines: string[]
  body: string
}

/** How the client reaches the site: inject() in one process, fetch() across processes. */
export type Transport = (request: {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  body?: Buffer
}) => Promise<{ status: number; body: string }>

export class OneCClient {
  cookie: string | null = null
  fileLimit = 0
  zip = false
  /** `progress` answers the last import took */
  progressCalls = 0

  constructor(private readonly send: Transport) {}

  async call(query: string, body?: Buffer): Promise<Answer> {
    const res = await this.send({
      method: body ? 'POST' : 'GET',
      url: `/1c/exchange?${query}`,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body ? { 'content-type': 'application/octet-stream' } : {}),
      },
      body,
    })
    return { status: res.status, lines: res.body.replace(/\n$/, '').split('\n'), body: res.body }
  }

  async checkauth(type = 'catalog', login = LOGIN, password = PASSWORD): Promise<Answer> {
    const res = await this.send({
      method: 'GET',
      url: `/1c/exchange?type=${type}&mode=checkauth`,
      headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
    })
    const lines = res.body.replace(/\n$/, '').split('\n')
    if (lines[0] === 'success') this.cookie = `${lines[1]}=${lines[2]}`
    return { status: res.status, lines, body: res.body }
  }

  async init(type = 'catalog'): Promise<Answer> {
    const answer = await this.call(`type=${type}&mode=init&version=2.08`)
    for (const line of answer.lines) {
      const [key, value] = line.split('=')
      if (key === 'file_limit') this.fileLimit = Number(value)
      if (key === 'zip') this.zip = value === 'yes'
    }
    return answer
  }

  /** Sends a file in parts of at most file_limit (or `partSize`). */
  async sendFile(name: string, bytes: Buffer, partSize = this.fileLimit): Promise<Answer> {
    let last: Answer | null = null
    for (let offset = 0; offset < bytes.length; offset += partSize) {
      last = await this.call(
        `type=catalog&mode=file&filename=${encodeURIComponent(name)}`,
        bytes.subarray(offset, offset + partSize),
      )
      if (last.lines[0] !== 'success') return last
    }
    return last!
  }

  /** `import` until it is not `progress`; the final answer. */
  async importFile(name: string, maxCalls = 10_000): Promise<Answer> {
    this.progressCalls = 0
    for (let i = 0; i < maxCalls; i++) {
      const answer = await this.call(`type=catalog&mode=import&filename=${encodeURIComponent(name)}`)
      if (answer.lines[0] !== 'progress') return answer
      this.progressCalls++
    }
    throw new Error(`import of ${name} still in progress after ${maxCalls} calls`)
  }

  /**
   * The whole catalogue exchange as 1C runs it: files (zipped when `zip`, or sent as the `archive`
   * made of them beforehand), then each XML imported.
   */
  async exchange(
    files: Record<string, Buffer>,
    options: { zip?: boolean; archive?: Buffer; partSize?: number } = {},
  ): Promise<Answer[]> {
    const auth = await this.checkauth()
    if (auth.lines[0] !== 'success') throw new Error(`checkauth: ${auth.body}`)
    await this.init()
    if (options.zip || options.archive) {
      const sent = await this.sendFile('exchange.zip', options.archive ?? (await zipOf(files)), options.partSize)
      if (sent.lines[0] !== 'success') throw new Error(`file: ${sent.body}`)
    } else {
      for (const [name, bytes] of Object.entries(files)) {
        const sent = await this.sendFile(name, bytes, options.partSize)
        if (sent.lines[0] !== 'success') throw new Error(`file ${name}: ${sent.body}`)
      }
    }
    const answers: Answer[] = []
    for (const name of Object.keys(files).filter((n) => n.endsWith('.xml'))) answers.push(await this.importFile(name))
    await this.call('type=catalog&mode=complete')
    return answers
  }
}

/** A transport over Fastify's inject(). */
export function injectTransport(app: {
  inject(options: object): Promise<{ statusCode: number; body: string }>
}): Transport {
  return async ({ method, url, headers, body }) => {
    const res = await app.inject({ method, url, headers, ...(body ? { payload: body } : {}) })
    return { status: res.statusCode, body: res.body }
  }
}

/** A transport over HTTP to a listening server. */
export function httpTransport(base: string): Transport {
  return async ({ method, url, headers, body }) => {
    const res = await fetch(`${base}${url}`, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) })
    return { status: res.status, body: await res.text() }
  }
}
