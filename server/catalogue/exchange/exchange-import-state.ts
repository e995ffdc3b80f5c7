// Where a 1C import is and what it holds while it runs (docs/decisions/032-1c-exchange.md): the
// import's state kept with its session, the catalogue's import claim it waits for, and the top
// section 1C's root groups go under. exchange-import.ts takes the steps.
import type { Transaction } from 'kysely'
import type { Db } from '../../data/db'
import type { Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { claimImport, type ImportClaim } from '../import-claim'
import { insertRecord } from '../../content/structure-store'
import type { ImportContext, ImportState } from './exchange-inputs'

type Trx = Transaction<Database>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The catalogue's import claim (import-claim.ts), so the price list, the content import and 1C
 * never write at once: waited for until the call's deadline, then null (1C hears `progress`).
 */
export async function claimCatalogue(db: Db, deadline: number): Promise<ImportClaim | null> {
  for (;;) {
    try {
      return await claimImport(db, '1c')
    } catch (error) {
      if (!(error instanceof HttpError) || error.code !== 'import_running') throw error
      if (Date.now() > deadline) return null
      await sleep(250)
    }
  }
}

export const newState = (): ImportState => ({
  unpacked: false,
  files: {},
  properties: {},
  priceTypes: {},
  fullSync: false,
  groupAlias: {},
})

export async function saveState(trx: Trx | Db, sessionId: string, state: ImportState): Promise<void> {
  await trx
    .updateTable('exchangeSession')
    .set({ state: JSON.stringify(state) })
    .where('id', '=', sessionId)
    .execute()
}

/** The catalogue's top section, where 1C's root groups go: made («Каталог») when the site has none. */
export async function catalogueRoot(ctx: ImportContext): Promise<number> {
  const index = await ctx.db.selectFrom('structure').select('id').where('urlFull', '=', '/').executeTakeFirst()
  const root = await ctx.db
    .selectFrom('structure')
    .select('id')
    .where('typeId', '=', 'section')
    .where('parentId', index ? '=' : 'is', index?.id ?? null)
    .orderBy('sort')
    .orderBy('id')
    .executeTakeFirst()
  if (root) return root.id
  return ctx.door.write(async (unit) =>
    insertRecord(unit, { parentId: index?.id ?? null, typeId: 'section', title: 'Каталог', urlFull: '/katalog/' }),
  )
}
