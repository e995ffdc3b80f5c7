// node --import tsx test/bench/content-import.ts [products=10000]
// Times `npm run content -- import` of a generated catalogue (200 sections of 50 products, each
// with three characteristics, one picture shared by all, an old price on every fifth) into a fresh
// SQLite instance, then the same import again (it updates the same records). Prints; never fails.
import { performance } from 'node:perf_hooks'
import { importContent } from '../../server/tools/content-import'
import { EXPORT_FORMAT, type ContentExport } from '../../server/tools/content-format'
import { readToolConfig } from '../../server/tools/tool-config'
import { pngImage } from '../api/helpers'
import { buildTestApp, listen } from '../helpers/build-test-app'

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef'

async function generatedExport(products: number): Promise<ContentExport> {
  const sections = Math.max(1, Math.round(products / 50))
  const image = 'uploads/bench.png'
  const structure: Array<Record<string, unknown>> = [
    { id: 1, parentId: null, typeId: 'index', title: 'Магазин', urlFull: '/', sort: 0, published: true, status: null },
  ]
  let id = 1
  for (let s = 0; s < sections; s++) {
    const sectionId = ++id
    structure.push({
      id: sectionId,
      parentId: 1,
      typeId: 'section',
      title: `Раздел ${s + 1}`,
      urlFull: `/r${s + 1}/`,
      sort: s,
    })
    for (let p = 0; p < products / sections; p++) {
      const price = 1000 + p * 10
      structure.push({
        id: ++id,
        parentId: sectionId,
        typeId: 'product',
        title: `Товар ${s + 1}-${p + 1}`,
        urlFull: `/r${s + 1}/t${p + 1}`,
        sort: p,
        published: true,
        status: null,
        product: {
          image,
          article: `A-${s + 1}-${p + 1}`,
          price,
          oldPrice: p % 5 === 0 ? price + 500 : null,
          vendor: 'Бренд',
          availability: 'in_stock',
          featured: false,
          description: 'Описание товара для замера импорта.',
        },
        images: [{ image, alt: null, sort: 0 }],
        properties: [
          { groupName: 'Габариты', name: 'Масса', value: '1,5', unit: 'кг', sort: 0 },
          { groupName: 'Габариты', name: 'Длина', value: '300', unit: 'мм', sort: 1 },
          { groupName: null, name: 'Цвет', value: 'синий', unit: null, sort: 2 },
        ],
      })
    }
  }
  const png = await pngImage(64, 64, [40, 90, 160])
  return {
    format: EXPORT_FORMAT,
    version: 1,
    exportedAt: new Date().toISOString(),
    structure,
    orderType: [],
    images: { [image]: { contentType: 'image/png', base64: png.toString('base64') } },
  }
}

const products = Number(process.argv[2] ?? 10_000)
const data = await generatedExport(products)
const target = await buildTestApp({ ADMIN_TOKEN, SEED_DEMO: 'false' })
try {
  const config = readToolConfig({ VITRINA_URL: await listen(target), ADMIN_TOKEN })
  for (const run of ['first import', 'same file again']) {
    const started = performance.now()
    const result = await importContent(config, data)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `${run}: ${result.records} records in ${seconds.toFixed(1)} s (${(result.records / seconds).toFixed(0)} records/s)`,
    )
  }
  const count = await target.app.db
    .selectFrom('productProperty')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  console.log(`characteristics stored: ${count.n} (expected ${products * 3})`)
} finally {
  await target.close()
}
