// The demo shop's filters (issue 46, docs/decisions/042-characteristics-and-filters.md): the owner's
// choices for the power tools' characteristics (server/content/demo-catalogue.ts, DEMO_FILTERS),
// made in the seed's own write, so a seeded shop never exists without them.
import type { ContentDoor, ContentWrite } from '../content/content-write'
import { DEMO_FILTERS } from '../content/demo-catalogue'
import { listCharacteristics, updateCharacteristic } from './characteristics/characteristic-store'

/**
 * Makes the demo's characteristics filters in the owner's order, as «Характеристики» would, once
 * the demo's products (which made the characteristics' rows) are written in `unit`.
 */
export async function applyDemoFilters(door: ContentDoor, unit: ContentWrite): Promise<void> {
  // The store's writer takes a door; this one runs its work in the seed's transaction.
  const inSeed: ContentDoor = { db: door.db, write: (work) => work(unit) }
  const made = await listCharacteristics(unit.trx)
  for (const choice of DEMO_FILTERS) {
    const row = made.find((c) =>
      choice.source === 'vendor' ? c.source === 'vendor' : c.name === choice.name && c.unit === choice.unit,
    )
    if (!row) throw new Error(`the demo has no characteristic «${choice.name}» (${choice.unit || 'no unit'})`)
    const { shownUnit, shown } = row
    const title = choice.source === 'vendor' ? choice.name : row.title
    await updateCharacteristic(inSeed, row.id, { title, shownUnit, shown, filter: choice.filter, sort: choice.sort })
  }
}
