// The catalogue in and out at 10,000 products on SQLite (issue 23): a price list of 10,000 new
// products, then 10,000 new prices, then the same file again; each previewed and applied in this
// process, as the back office's API does. Wall time and the heap's growth are printed.
import { applyPriceList, previewPriceList } from '../../server/catalogue-io/price-import'
import zlib from 'node:zlib'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ymlProblems } from '../helpers/yml-rules'

export const BENCH_PRODUCTS = 10_000

/** A price list as Russian Excel saves it: `;`, decimal commas, a characteristic with its unit. */
export function benchPriceList(priceOf: (i: number) => number): Buffer {
  const lines = ['Артикул;Наименование;Цена;Старая цена;Наличие;Раздел;Бренд;Вес, кг']
  for (let i = 1; i <= BENCH_PRODUCTS; i++) {
    const price = priceOf(i)
    lines.push(
      `Б-${i};"Товар ""${i}"" для замера";${price},00;${price + 500};${i % 7 === 0 ? 'Под заказ' : 'В наличии'};Электроинструмент;Бренд ${i % 13};${(i % 50) / 10}`,
    )
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`)
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; heapMiB: string }> {
  const heap = process.memoryUsage().heapUsed
  const started = performance.now()
  const value = await run()
  return {
    value,
    ms: Math.round(performance.now() - started),
    heapMiB: ((process.memoryUsage().heapUsed - heap) / 1024 / 1024).toFixed(0),
  }
}

/** Imports the bench catalogue into `t` and prints the table; leaves the 10,000 products in place. */
export async function benchPriceImport(t: TestApp): Promise<void> {
  const rows: Record<string, string | number>[] = []
  for (const [label, file] of [
    ['10,000 new products', benchPriceList((i) => 1000 + i)],
    ['10,000 new prices', benchPriceList((i) => 2000 + i)],
    ['the same file again', benchPriceList((i) => 2000 + i)],
  ] as const) {
    const preview = await timed(() => previewPriceList(t.app.db, file))
    const apply = await timed(() => applyPriceList(t.app.db, file, preview.value.confirm))
    t.app.content.invalidate()
    rows.push({
      file: label,
      KiB: (file.length / 1024).toFixed(0),
      'preview ms': preview.ms,
      'apply ms': apply.ms,
      'heap growth MiB': apply.heapMiB,
      updated: apply.value.updated,
      created: apply.value.created,
      unchanged: apply.value.unchanged,
    })
  }
  console.log(`A price list of ${BENCH_PRODUCTS} rows on SQLite (preview, then apply in one transaction):`)
  console.table(rows)
}

/** /feeds/yandex.xml over the catalogue `t` holds: built anew, then kept; its size and rules. */
export async function benchYandexFeed(t: TestApp): Promise<void> {
  const get = async (headers: Record<string, string>) => {
    const heap = process.memoryUsage().heapUsed
    const started = performance.now()
    const res = await t.app.inject({ url: '/feeds/yandex.xml', headers })
    return {
      res,
      ms: Math.round(performance.now() - started),
      heapMiB: (process.memoryUsage().heapUsed - heap) / 1048576,
    }
  }
  const built = await get({ 'accept-encoding': 'gzip' })
  const kept = await get({ 'accept-encoding': 'gzip' })
  const plain = await get({})
  const xml = zlib.gunzipSync(built.res.rawPayload).toString('utf8')
  const offers = xml.split('<offer ').length - 1
  console.log('/feeds/yandex.xml over that catalogue (SQLite, in process):')
  console.table([
    {
      offers,
      'build ms (first request)': built.ms,
      'kept ms (gzip)': kept.ms,
      'kept ms (plain, gunzipped)': plain.ms,
      MiB: (Buffer.byteLength(xml) / 1048576).toFixed(1),
      'gzip MiB': (built.res.rawPayload.length / 1048576).toFixed(2),
      'heap growth MiB': built.heapMiB.toFixed(0),
      'broken YML rules': ymlProblems(xml, t.config.publicUrl).length,
    },
  ])
}

/** The catalogue's price list in and feed out at 10,000 products, on a fresh SQLite site. */
export async function benchCatalogueIo(): Promise<void> {
  const t = await buildTestApp({ LOG_LEVEL: 'silent', YANDEX_FEED: 'true' })
  try {
    await benchPriceImport(t)
    await benchYandexFeed(t)
  } finally {
    await t.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCatalogueIo()
