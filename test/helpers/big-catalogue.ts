// A catalogue far bigger than the demo shop, written straight into the database through the
// structure repository (issue 27): `sections` sections of `perSection` products under the demo's
// «Каталог», and first among them «Большой раздел» with `bigSection` products. One transaction,
// one content version bump, so a running server sees it at its next version check.
import { bumpContentVersion, writeTransaction, type Db } from '../../server/data/db'
import { findIdByUrl, insertRecord } from '../../server/content/structure-store'

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
  return writeTransaction(db, async (trx) => {
    const catalogueId = await findIdByUrl(trx, '/structure/')
    if (catalogueId === null) throw new Error('the demo catalogue /structure/ is missing')
    const record = (parentId: number, typeId: string, title: string, urlFull: string, sort: number) =>
      insertRecord(trx, { parentId, typeId, title, urlFull, sort, createdAt: STAMP, updatedAt: STAMP })
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
    await bumpContentVersion(trx)
    return { catalogueId, bigSectionId, sectionIds, products }
  })
}
