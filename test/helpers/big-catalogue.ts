// A catalogue far bigger than the demo shop, written straight into the database through the
// structure repository (issue 27): `sections` sections of `perSection` products under the demo's
// «Каталог», and first among them «Большой раздел» with `bigSection` products. One write through
// the write door (IndexNow not told), so a running server sees it at its next version check.
// The products differ as a shop's do, so «Товары»'s filters and sorts have something to find
// (productOf): a quarter without a photo, one in 50 without a price, every tenth out of stock and
// every tenth on order, some with an old price or a description, each changed at its own minute.
import type { Db } from '../../server/data/db'
import { findIdByUrl, insertRecord } from '../../server/content/structure-store'
import { WriteDoor } from '../../server/catalogue/write-door'

export interface BigCatalogue {
  readonly catalogueId: number
  readonly bigSectionId: number
  readonly sectionIds: readonly number[]
  readonly products: number
}

const STAMP = Date.parse('2026-01-01T00:00:00.000Z')

/** The `i`-th product of a section: its part of the mix above, the same on every run. */
function productOf(sectionId: number, i: number) {
  // In kopecks: whole rubles from 1,000 to 9,999
  const price = i % 50 === 25 ? null : (1000 + ((i * 37) % 9000)) * 100
  return {
    article: `БК-${sectionId}-${i}`,
    price,
    // Not on the 1,000th (i % 5 = 0): admin-scale.test.ts raises its price above any old price.
    oldPrice: price !== null && i % 5 === 3 ? price + 50_000 : null,
    image: i % 4 === 0 ? null : `uploads/big-catalogue-${i % 97}.jpg`,
    availability: i % 10 === 0 ? 'out_of_stock' : i % 10 === 5 ? 'on_order' : 'in_stock',
    description: i % 3 === 0 ? null : `Описание товара ${i}.`,
  } as const
}

export async function insertBigCatalogue(
  db: Db,
  { sections, perSection, bigSection }: { sections: number; perSection: number; bigSection: number },
): Promise<BigCatalogue> {
  return new WriteDoor(db, { indexNowOrigin: null }).write(async (unit) => {
    const trx = unit.trx
    const catalogueId = await findIdByUrl(trx, '/structure/')
    if (catalogueId === null) throw new Error('the demo catalogue /structure/ is missing')
    const record = (parentId: number, typeId: string, title: string, urlFull: string, sort: number, minute = 0) => {
      const at = new Date(STAMP + minute * 60_000).toISOString()
      return insertRecord(unit, { parentId, typeId, title, urlFull, sort, createdAt: at, updatedAt: at })
    }
    let products = 0
    const addProducts = async (sectionId: number, url: string, count: number, prefix: string) => {
      const rows = []
      for (let i = 1; i <= count; i++) {
        const id = await record(sectionId, 'product', `${prefix} ${i}`, `${url}item-${i}`, i, (i * 7919) % 100_000)
        rows.push({ structureId: id, ...productOf(sectionId, i) })
        products++
      }
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('product')
          .values(rows.slice(i, i + 200))
          .execute()
    }
    const bigSectionId = await record(catalogueId, 'section', 'Большой раздел', '/structure/big/', -1)
    await addProducts(bigSectionId, '/structure/big/', bigSection, 'Товар')
    const sectionIds = [bigSectionId]
    for (let s = 1; s <= sections; s++) {
      const id = await record(catalogueId, 'section', `Раздел ${s}`, `/structure/section-${s}/`, 100 + s)
      sectionIds.push(id)
      await addProducts(id, `/structure/section-${s}/`, perSection, `Модель ${s}.`)
    }
    return { catalogueId, bigSectionId, sectionIds, products }
  })
}
