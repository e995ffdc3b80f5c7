// The owner's settings in the database (migration 027, docs/decisions/039-settings.md): key/value
// rows, one version number every write bumps in the write's own transaction, and the audit log
// (who, when, which key, never a value). Only this file writes SQL for these tables.
import type { Generated, Kysely } from 'kysely'
import { type Db } from '../data/db'
import { writeTransaction } from '../data/write-transaction'
import { shownActor } from '../admin/audit-actor'
import type { Database } from '../data/schema'
import type { SettingsAuditEntry } from '../../src/admin/admin-settings'

interface AppSettingTable {
  key: string
  value: string
  updatedAt: string
}
interface AppSettingVersionTable {
  id: number
  version: number
}
interface AppSettingAuditTable {
  id: Generated<number>
  at: string
  who: string
  key: string
  action: string
}

// The tables' types join the schema's from here, beside the only code that reads or writes them.
declare module '../data/schema' {
  interface Database {
    appSetting: AppSettingTable
    appSettingVersion: AppSettingVersionTable
    appSettingAudit: AppSettingAuditTable
  }
}

/** Every stored setting, with the version they are at. */
export interface StoredSettings {
  readonly version: number
  readonly values: ReadonlyMap<string, string>
}

/** The version alone: what each process reads every few seconds (one row by its primary key). */
export async function readSettingsVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('appSettingVersion').select('version').where('id', '=', 1).executeTakeFirst()
  return row?.version ?? 0
}

export async function readStoredSettings(db: Db): Promise<StoredSettings> {
  // One transaction would be stricter; a version read before the rows can only make the next poll
  // read them again, never miss a change.
  const version = await readSettingsVersion(db)
  const rows = await db.selectFrom('appSetting').select(['key', 'value']).execute()
  return { version, values: new Map(rows.map((row) => [row.key, row.value])) }
}

/** A change of one key: a new value, or null to delete it; `action` is what the audit log says. */
export interface SettingChange {
  readonly key: string
  readonly value: string | null
  readonly action: 'set' | 'cleared' | 'generated'
}

/** Writes the changes, their audit entries and a new version, all or nothing. */
export async function writeStoredSettings(
  db: Db,
  changes: readonly SettingChange[],
  who: string,
  at: Date,
): Promise<void> {
  if (changes.length === 0) return
  const stamp = at.toISOString()
  await writeTransaction(db, async (trx) => {
    for (const change of changes) {
      if (change.value === null) await trx.deleteFrom('appSetting').where('key', '=', change.key).execute()
      else
        await trx
          .insertInto('appSetting')
          .values({ key: change.key, value: change.value, updatedAt: stamp })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: change.value!, updatedAt: stamp }))
          .execute()
      await trx
        .insertInto('appSettingAudit')
        .values({ at: stamp, who: who.slice(0, 100), key: change.key, action: change.action })
        .execute()
    }
    await bumpVersion(trx)
  })
}

async function bumpVersion(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('appSettingVersion')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute()
}

/** The newest entries of the audit log first. */
export async function readSettingsAudit(db: Db, limit: number): Promise<SettingsAuditEntry[]> {
  const rows = await db
    .selectFrom('appSettingAudit')
    .select(['at', 'who', 'key', 'action'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({ ...row, who: shownActor(row.who), action: row.action as SettingsAuditEntry['action'] }))
}
