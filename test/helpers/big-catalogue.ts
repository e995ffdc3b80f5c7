// A catalogue far bigger than the demo shop, written straight into the database through the
// structure repository (issue 27): `sections` sections of `perSection` products under the demo's
// «Каталог», and first among them «Большой раздел» with `bigSection` products. One write through
// the write door (IndexNow not told), so a running server sees it at its next version check.
import type { Db } from '../../server/data/db'
import { findIdByUrl, insertRecord } from '../../server/content/structure-store'
import { WriteDoor } from '../../server/catalogue/write-door'

export interface BigCatalogue {
  readonly catalogueId: number
  readonly bigSectionId: number
  readonly sectionIds: readonly number[]
  readonly products: number
}

const STAMP = '2026-01-01T00:00:00.000Z'

export async function insertBigCatalogue(
  db: Db,
  { sections, perSection, bigSection }: { sections: number; perSection: number; bigSection: number },
): Promise<BigCatalogue> {
  return new WriteDoor(db, { indexNowOrigin: null }).write(async (unit) => {
    const trx = unit.trx
    const catalogueId = await findIdByUrl(trx, '/structure/')
    if (catalogueId === null) throw new Error('the demo catalogue /structure/ is missing')
    const record = (parentId: number, typeId: string, title: string, urlFull: string, sort: number) =>
      insertRecord(unit, { parentId, typeId, title, urlFull, sort, createdAt: STAMP, updatedAt: STAMP })
    let products = 0
    const addProducts = async (sectionId: number, url: string, count: number, prefix: string) => {
      const rows = []
      for (let i = 1; i <= count; i++) {
        const id = await record(sectionId, 'product', `${prefix} ${i}`, `${url}item-${i}`, i)
        rows.push({ structureId: id, article: `БК-${sectionId}-${i}`, price: 1000 + i, image: null })
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
