// The 1C exchange driven as 1C drives it (issue 35): a client that speaks «Обмен с сайтом» with
// CommerceML files written to the schema, on SQLite and PostgreSQL. What a shop notices: the groups
// become nested sections, the goods become product pages with their characteristics, pictures,
// prices and stock; a rename keeps the section (its old URL answers 301); a full sync withdraws what
// 1C no longer has (410) and a delta touches only what it names; a broken file, a zip bomb or a
// `../` name is refused with a Russian reason and nothing written; a second process takes the
// session the first one opened; and every lead reaches 1C as an order exactly once.
import { createHash, randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { formatMoney } from '../../src/format/money'
import { UPLOAD_HASH_DIGITS } from '../../src/site/image-variants'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { claimImport } from '../../server/catalogue/import-claim'
import { readContentVersion } from '../../server/data/db'
import { ADMIN_TOKEN, jpegImage } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import {
  EXCHANGE_ENV,
  OneCClient,
  importXml,
  injectTransport,
  offersXml,
  zipOf,
  type Group,
  type Product,
} from '../helpers/one-c'

const GROUPS: Group[] = [
  {
    id: 'g-tools',
    name: 'Электроинструмент',
    children: [
      { id: 'g-drills', name: 'Дрели' },
      { id: 'g-saws', name: 'Пилы' },
    ],
  },
  { id: 'g-garden', name: 'Садовая техника' },
]

const PROPERTIES = [
  { id: 'p-power', name: 'Мощность' },
  { id: 'p-color', name: 'Цвет', values: { 'v-red': 'Красный', 'v-green': 'Зелёный' } },
]

const PRICE_TYPES = [
  { id: 'pt-retail', name: 'Розничная' },
  { id: 'pt-old', name: 'Старая цена' },
]

function catalogue(extra: Partial<Record<string, Partial<Product>>> = {}): Product[] {
  const base: Product[] = [
    {
      id: 'prod-drill',
      name: 'Дрель ударная Вихрь ДУ-800',
      article: 'ДУ-800',
      description: 'Ударная дрель для бетона и кирпича.',
      vendor: 'Вихрь',
      groups: ['g-drills'],
      pictures: ['import_files/ab/drill.jpg'],
      properties: { 'p-power': '800 Вт', 'p-color': 'v-red' },
    },
    { id: 'prod-saw', name: 'Пила циркулярная ПЦ-1500', article: 'ПЦ-1500', groups: ['g-saws'] },
    { id: 'prod-mower', name: 'Газонокосилка ГК-40', article: 'ГК-40', groups: ['g-garden'] },
  ]
  return base.map((p) => ({ ...p, ...extra[p.id] }))
}

const OFFERS = offersXml({
  priceTypes: PRICE_TYPES,
  offers: [
    { id: 'prod-drill', prices: { 'pt-retail': 4990.9, 'pt-old': 5990 }, quantity: 3 },
    // Two characteristics of one product: the price «от» the lowest, in stock since one is.
    { id: 'prod-saw#c-1', name: 'Пила (диск 185)', prices: { 'pt-retail': 7200, 'pt-old': 7200 }, quantity: 0 },
    { id: 'prod-saw#c-2', name: 'Пила (диск 210)', prices: { 'pt-retail': 6900, 'pt-old': 6900 }, quantity: 2 },
    { id: 'prod-mower', prices: { 'pt-retail': 15500 }, quantity: 0 },
    { id: 'prod-unknown', prices: { 'pt-retail': 100 }, quantity: 1 },
  ],
})

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the 1C exchange on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient
    let picture: Buffer

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      picture = await jpegImage(64, 48)
      // The owner picks the old price's type in «Обмен с 1С».
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { enabled: true, priceType: 'Розничная', oldPriceType: 'Старая цена', zeroStock: 'out_of_stock' },
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(async () => {
      await t?.close()
    })

    const page = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      return { status: res.statusCode, text: decodeEntities(res.body), location: res.headers.location }
    }
    const recordOf = async (externalId: string) => {
      const row = await t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .leftJoin('product', 'product.structureId', 'structure.id')
        .select([
          'structure.id',
          'structure.urlFull',
          'structure.title',
          'structure.parentId',
          'structure.status',
          'product.price',
          'product.oldPrice',
          'product.availability',
          'product.image',
          'product.vendor',
        ])
        .where('exchangeRecord.externalId', '=', externalId)
        .executeTakeFirst()
      return row
    }

    it('refuses wrong credentials and any call without the session', async () => {
      const stranger = new OneCClient(injectTransport(t.app))
      const wrong = await stranger.checkauth('catalog', 'exchange1c', 'wrong-password')
      expect(wrong.status).toBe(401)
      expect(wrong.lines[0]).toBe('failure')
      expect(wrong.lines[1]).toMatch(/Неверный логин или пароль/)
      const noSession = await stranger.call('type=catalog&mode=init')
      expect(noSession.lines[0]).toBe('failure')
      expect(noSession.lines[1]).toMatch(/checkauth/)
      const ok = await stranger.checkauth()
      expect(ok.lines).toHaveLength(3)
      expect(ok.lines[0]).toBe('success')
      const init = await stranger.init()
      expect(init.lines[0]).toBe('zip=yes')
      expect(stranger.fileLimit).toBeGreaterThan(100_000)
    })

    it('builds the catalogue from import.xml and offers.xml: nested sections, products, characteristics, pictures, prices, stock', async () => {
      const answers = await client.exchange(
        {
          'import_files/ab/drill.jpg': picture,
          'import.xml': importXml({ groups: GROUPS, properties: PROPERTIES, products: catalogue() }),
          'offers.xml': OFFERS,
        },
        // Parts smaller than the file: the file is put together from several calls.
        { partSize: 700 },
      )
      expect(answers.map((a) => a.lines[0])).toEqual(['success', 'success'])

      const tools = await recordOf('g-tools')
      const drills = await recordOf('g-drills')
      expect(drills!.parentId).toBe(tools!.id)
      expect(drills!.urlFull).toMatch(new RegExp(`^${tools!.urlFull}dreli/$`))

      const drill = await recordOf('prod-drill')
      expect(drill!.parentId).toBe(drills!.id)
      // Kept to the kopeck (4990.90 in the file), and shown so.
      expect(drill).toMatchObject({ price: 499090, oldPrice: 599000, availability: 'in_stock', vendor: 'Вихрь' })
      expect(drill!.image).toMatch(/^uploads\/.+\.64x48\.jpg$/)
      const shown = await page(drill!.urlFull)
      expect(shown.status).toBe(200)
      expect(shown.text).toContain('Дрель ударная Вихрь ДУ-800')
      expect(shown.text).toContain(formatMoney(499090))
      expect(shown.text).toContain('Красный')
      expect(shown.text).toContain('800 Вт')
      expect(shown.text).toContain('Ударная дрель для бетона и кирпича.')

      const saw = await recordOf('prod-saw')
      expect(saw).toMatchObject({ price: 690000, availability: 'in_stock' })
      const mower = await recordOf('prod-mower')
      expect(mower).toMatchObject({ price: 1550000, availability: 'out_of_stock' })

      const section = await page(drills!.urlFull)
      expect(section.text).toContain('Дрель ударная Вихрь ДУ-800')

      const run = await t.app.db.selectFrom('exchangeRun').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
      expect(run.status).toBe('success')
      const report = JSON.parse(run.report)
      expect(report.tally).toMatchObject({ groupsCreated: 4, productsCreated: 3, imagesTaken: 1, variants: 2 })
      // The characteristics' offers are listed in the log, each with its price and stock.
      expect(report.variants).toHaveLength(2)
      expect(report.variants.map((v: { offer: string }) => v.offer)).toEqual([
        expect.stringMatching(/^prod-\S+#\S+$/),
        expect.stringMatching(/^prod-\S+#\S+$/),
      ])
      expect(report.variants).toContainEqual(expect.objectContaining({ price: expect.any(Number) }))
      expect(report.skipped).toContainEqual({ what: 'Предложение prod-unknown', why: 'товара с этим Ид нет на сайте' })
      // Several calls, each answered `progress`: the import went in steps.
      expect(await t.app.db.selectFrom('exchangeFile').select('id').execute()).toEqual([])
    })

    it('takes the same exchange again without changing anything', async () => {
      const before = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull', 'updatedAt'])
        .orderBy('id')
        .execute()
      const version = await readContentVersion(t.app.db)
      await client.exchange({
        'import_files/ab/drill.jpg': picture,
        'import.xml': importXml({ groups: GROUPS, properties: PROPERTIES, products: catalogue() }),
        'offers.xml': OFFERS,
      })
      const after = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull', 'updatedAt'])
        .orderBy('id')
        .execute()
      expect(after).toEqual(before)
      // Nothing written: the content version stays, so no process drops its caches.
      expect(await readContentVersion(t.app.db)).toBe(version)
    })

    it('keeps a renamed group as the same section, its old URL answering 301', async () => {
      const before = await recordOf('g-drills')
      const groups = structuredClone(GROUPS)
      groups[0].children![0].name = 'Дрели и миксеры'
      await client.exchange({ 'import.xml': importXml({ groups, properties: PROPERTIES, products: catalogue() }) })
      const after = await recordOf('g-drills')
      expect(after!.id).toBe(before!.id)
      expect(after!.title).toBe('Дрели и миксеры')
      expect(after!.urlFull).not.toBe(before!.urlFull)
      const old = await page(before!.urlFull)
      expect(old.status).toBe(301)
      expect(old.location).toContain(encodeURI(after!.urlFull))
      // The product under it moved with it, and its old URL redirects too.
      const drill = await recordOf('prod-drill')
      expect(drill!.urlFull.startsWith(after!.urlFull)).toBe(true)
    })

    it('a delta touches only what it names; a full sync withdraws what 1C no longer has (410)', async () => {
      await client.exchange({
        'import.xml': importXml({
          products: [{ id: 'prod-saw', name: 'Пила циркулярная ПЦ-1600', groups: ['g-saws'] }],
        }),
      })
      expect((await recordOf('prod-saw'))!.title).toBe('Пила циркулярная ПЦ-1600')
      expect((await recordOf('prod-mower'))!.status).toBeNull()

      const full = catalogue().filter((p) => p.id !== 'prod-mower')
      await client.exchange({
        'import.xml': importXml({ groups: GROUPS, properties: PROPERTIES, products: full }, { onlyChanges: false }),
      })
      const mower = await recordOf('prod-mower')
      expect(mower!.status).toBe(410)
      expect((await page(mower!.urlFull)).status).toBe(410)
      expect((await recordOf('prod-drill'))!.status).toBeNull()
      // The owner's own products are never touched by a full sync.
      expect((await page('/structure/product')).status).toBe(200)

      // Named again, it is back.
      await client.exchange({ 'import.xml': importXml({ groups: GROUPS, products: catalogue() }) })
      expect((await recordOf('prod-mower'))!.status).toBeNull()
    })

    it('reads Windows-1251, the commerceml_210 namespace with prefixes, zipped, and a split prices/rests exchange', async () => {
      await client.exchange(
        {
          'import0_1.xml': importXml(
            {
              groups: [{ id: 'g-hand', name: 'Ручной инструмент' }],
              products: [{ id: 'prod-hammer', name: 'Молоток слесарный 500 г', article: 'МС-500', groups: ['g-hand'] }],
            },
            { cp1251: true, namespace: '210', version: '2.10', prefix: 'cml' },
          ),
          'prices0_1.xml': offersXml(
            { priceTypes: PRICE_TYPES, offers: [{ id: 'prod-hammer', prices: { 'pt-retail': 650 } }] },
            { cp1251: true, namespace: '210', version: '2.10' },
          ),
          'rests0_1.xml': offersXml(
            { offers: [{ id: 'prod-hammer', rests: 0 }] },
            { namespace: '210', version: '2.10' },
          ),
        },
        { zip: true },
      )
      const hammer = await recordOf('prod-hammer')
      expect(hammer).toMatchObject({ title: 'Молоток слесарный 500 г', price: 65000, availability: 'out_of_stock' })
      expect((await recordOf('g-hand'))!.title).toBe('Ручной инструмент')
    })

    it('unpacks an archive sent in parts smaller than its entries, reading each entry across the parts', async () => {
      const photo = await jpegImage(320, 240)
      const answers = await client.exchange(
        {
          'import_files/cd/sander.jpg': photo,
          'import.xml': importXml({
            products: [
              {
                id: 'prod-sander',
                name: 'Шлифмашина ШМ-300',
                article: 'ШМ-300',
                groups: ['g-tools'],
                pictures: ['import_files/cd/sander.jpg'],
              },
            ],
          }),
        },
        // 256-byte parts: the picture, the XML and the archive's directory each lie across several.
        { zip: true, partSize: 256 },
      )
      expect(answers.map((a) => a.lines[0])).toEqual(['success'])
      const sander = await recordOf('prod-sander')
      expect(sander!.title).toBe('Шлифмашина ШМ-300')
      // Named by what it holds: the bytes unpacked are the bytes 1C zipped.
      const hash = createHash('sha256').update(photo).digest('hex')
      expect(sander!.image).toBe(`uploads/${hash.slice(0, UPLOAD_HASH_DIGITS)}.320x240.jpg`)
    })

    it('keeps a picture sent in parts of more than a stored row whole, under its own name from the first part on', async () => {
      // Noise does not compress: a JPEG of about 3.5 MB, sent in two `file` calls of more than a
      // stored row (1 MiB) each.
      const noise = randomBytes(1400 * 1400 * 3)
      const photo = await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } })
        .jpeg({ quality: 100 })
        .toBuffer()
      const half = Math.ceil(photo.length / 2)
      expect(half).toBeGreaterThan(1024 * 1024)
      await client.checkauth()
      await client.init()
      const stored = () => t.app.db.selectFrom('exchangeFile').select(['name', 'seq', 'size']).orderBy('seq').execute()
      expect((await client.sendFile('import_files/ef/grinder.jpg', photo.subarray(0, half))).lines[0]).toBe('success')
      // Each part in rows of at most a mebibyte, numbered on from the file's last row, and no row
      // under another name once the call has answered.
      const first = await stored()
      expect(new Set(first.map((row) => row.name))).toEqual(new Set(['import_files/ef/grinder.jpg']))
      expect(first.map((row) => row.seq)).toEqual([0, 1])
      expect((await client.sendFile('import_files/ef/grinder.jpg', photo.subarray(half))).lines[0]).toBe('success')
      const rows = await stored()
      expect(new Set(rows.map((row) => row.name))).toEqual(new Set(['import_files/ef/grinder.jpg']))
      expect(rows.map((row) => row.seq)).toEqual([0, 1, 2, 3])
      expect(Math.max(...rows.map((row) => row.size))).toBeLessThanOrEqual(1024 * 1024)
      expect(rows.reduce((sum, row) => sum + row.size, 0)).toBe(photo.length)
      await client.sendFile(
        'import.xml',
        importXml({
          products: [
            {
              id: 'prod-grinder',
              name: 'Болгарка УШМ-125',
              groups: ['g-tools'],
              pictures: ['import_files/ef/grinder.jpg'],
            },
          ],
        }),
      )
      expect((await client.importFile('import.xml')).lines[0]).toBe('success')
      await client.call('type=catalog&mode=complete')
      const hash = createHash('sha256').update(photo).digest('hex')
      expect((await recordOf('prod-grinder'))!.image).toBe(`uploads/${hash.slice(0, UPLOAD_HASH_DIGITS)}.1400x1400.jpg`)
    })

    it('a repeated import after a lost answer does no harm', async () => {
      await client.checkauth()
      await client.init()
      await client.sendFile('import.xml', importXml({ groups: GROUPS, products: catalogue() }))
      const first = await client.importFile('import.xml')
      expect(first.lines[0]).toBe('success')
      const count = async () => (await t.app.db.selectFrom('structure').select('id').execute()).length
      const records = await count()
      // 1C did not hear the answer and asks again.
      const again = await client.importFile('import.xml')
      expect(again.lines[0]).toBe('success')
      expect(await count()).toBe(records)
      await client.call('type=catalog&mode=complete')
    })

    it('waits while another import holds the catalogue, then goes on', async () => {
      const other = await claimImport(t.app.db, 'price-list')
      await client.checkauth()
      await client.init()
      await client.sendFile(
        'import.xml',
        importXml({ products: [{ id: 'prod-later', name: 'Товар после прайс-листа' }] }),
      )
      const waiting = await client.call('type=catalog&mode=import&filename=import.xml')
      expect(waiting.lines).toEqual(['progress', 'Ждём окончания другого импорта на сайте'])
      expect(await recordOf('prod-later')).toBeUndefined()
      await other.release()
      expect((await client.importFile('import.xml')).lines[0]).toBe('success')
      expect((await recordOf('prod-later'))!.title).toBe('Товар после прайс-листа')
      await client.call('type=catalog&mode=complete')
    })

    it('refuses a broken file with a Russian reason and writes nothing of it', async () => {
      const records = (await t.app.db.selectFrom('structure').select('id').execute()).length
      await client.checkauth()
      await client.init()
      const good = importXml({ products: [{ id: 'prod-new', name: 'Новый товар' }] }).toString('utf8')
      await client.sendFile('import.xml', Buffer.from(good.slice(0, good.length - 40)))
      const answer = await client.importFile('import.xml')
      expect(answer.status).toBe(422)
      expect(answer.lines[0]).toBe('failure')
      expect(answer.lines[1]).toMatch(/не является правильным XML/)
      expect((await t.app.db.selectFrom('structure').select('id').execute()).length).toBe(records)
      const run = await t.app.db.selectFrom('exchangeRun').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
      expect(run.status).toBe('failure')
      // The owner sees it in /readyz too.
      const ready = await t.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(ready.json().exchange1c).toMatchObject({ status: 'failure', message: expect.stringMatching(/XML/) })
      // A DTD (the door to entity expansion) is refused outright.
      await client.init()
      await client.sendFile(
        'import.xml',
        Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><КоммерческаяИнформация>&a;</КоммерческаяИнформация>',
        ),
      )
      const dtd = await client.importFile('import.xml')
      expect(dtd.lines).toEqual(['failure', 'Файл содержит DTD: такие файлы обмен не читает'])
    })

    it('refuses a zip bomb and names outside the exchange', async () => {
      await client.checkauth()
      await client.init()
      for (const name of ['../site.db', '/etc/passwd', 'import_files/../../x.jpg', 'C:/x.xml']) {
        const answer = await client.call(
          `type=catalog&mode=file&filename=${encodeURIComponent(name)}`,
          Buffer.from('x'),
        )
        expect(answer.status, name).toBe(400)
        expect(answer.lines[0]).toBe('failure')
      }
      // An entry that declares 1 KB and inflates to 5 MB.
      const zip = await zipOf({ 'import.xml': Buffer.alloc(5 * 1024 * 1024, 0x20) })
      const bomb = Buffer.from(zip)
      const patchSizes = (signature: number, sizeOffset: number) => {
        for (let i = 0; i + 4 <= bomb.length; i++) {
          if (bomb.readUInt32LE(i) === signature) bomb.writeUInt32LE(1024, i + sizeOffset)
        }
      }
      patchSizes(0x04034b50, 22) // local header: uncompressed size
      patchSizes(0x02014b50, 24) // central directory: uncompressed size
      await client.sendFile('exchange.zip', bomb)
      const answer = await client.importFile('import.xml')
      expect(answer.lines[0]).toBe('failure')
      expect(answer.lines[1]).toMatch(/Архив/)
      expect(
        await t.app.db.selectFrom('exchangeFile').select('name').where('name', '=', 'import.xml').execute(),
      ).toEqual([])
    })

    it('a second process takes the session the first one opened', async () => {
      const second: App = await buildApp(t.config)
      await second.ready()
      try {
        const one = new OneCClient(injectTransport(t.app))
        await one.checkauth()
        await one.init()
        const other = new OneCClient(injectTransport(second))
        other.cookie = one.cookie
        other.fileLimit = one.fileLimit
        const sent = await other.sendFile(
          'import.xml',
          importXml({ products: [{ id: 'prod-two', name: 'Товар второго процесса', groups: ['g-garden'] }] }),
        )
        expect(sent.lines[0]).toBe('success')
        expect((await one.importFile('import.xml')).lines[0]).toBe('success')
        expect((await recordOf('prod-two'))!.title).toBe('Товар второго процесса')
      } finally {
        await second.close()
      }
    })

    it('gives each lead to 1C as an order once, never spam', async () => {
      const drill = await recordOf('prod-drill')
      const send = (body: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/feedback',
          headers: { 'content-type': 'application/json' },
          payload: body,
        })
      const lead = {
        username: 'Иван Петров',
        phone: '+7 (999) 123-45-67',
        email: 'ivan@example.ru',
        consent: true,
        sourceUrl: drill!.urlFull,
        utm: { utm_source: 'yandex', utm_campaign: 'drills' },
      }
      const res = await send(lead)
      expect(res.statusCode, res.body).toBeLessThan(300)
      const { id: leadId } = await t.app.db
        .selectFrom('feedback')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      await t.app.db.updateTable('feedback').set({ spam: 1 }).where('id', '<>', leadId).execute()

      const sale = new OneCClient(injectTransport(t.app))
      expect((await sale.checkauth('sale')).lines[0]).toBe('success')
      await sale.init('sale')
      const query = await sale.call('type=sale&mode=query')
      expect(query.status).toBe(200)
      const { XMLParser, XMLValidator } = await import('fast-xml-parser')
      expect(XMLValidator.validate(query.body)).toBe(true)
      const parsed = new XMLParser({ isArray: (name) => name === 'Документ' || name === 'Контакт' }).parse(query.body)
      const documents = parsed['КоммерческаяИнформация']['Документ']
      expect(documents).toHaveLength(1)
      const order = documents[0]
      expect(order['Номер']).toBe(leadId)
      expect(order['ХозОперация']).toBe('Заказ товара')
      const person = order['Контрагенты']['Контрагент']
      expect(person['Наименование']).toBe('Иван Петров')
      expect(person['Контакты']['Контакт'].map((c: { Значение: string }) => c['Значение'])).toEqual([
        '+7 (999) 123-45-67',
        'ivan@example.ru',
      ])
      expect(order['Товары']['Товар']['Ид']).toBe('prod-drill')
      expect(order['Комментарий']).toContain('utm_source=yandex')

      // Asked again before success: the same lead.
      const repeat = await sale.call('type=sale&mode=query')
      expect(repeat.body).toContain(`<Номер>${leadId}</Номер>`)
      expect((await sale.call('type=sale&mode=success')).lines[0]).toBe('success')
      const after = await sale.call('type=sale&mode=query')
      expect(after.body).not.toContain('<Документ>')
      expect(XMLValidator.validate(after.body)).toBe(true)

      const inbox = await t.app.inject({
        url: `/api/admin/leads?tab=new`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      const shown = JSON.parse(inbox.body).data.find((l: { id: number }) => l.id === leadId)
      expect(shown.exportedTo1cAt).toMatch(/^\d{4}-/)
    })
  })
}
