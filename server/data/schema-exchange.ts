// Row types of the 1C exchange's tables (server/catalogue/exchange; docs/decisions/032-1c-exchange.md).
// Part of schema.ts, which re-exports them; kept apart so that file stays readable.
import type { ColumnType, Generated } from 'kysely'

/** 0 or 1: a boolean that reads the same in SQLite and PostgreSQL */
type Flag = number

/** A 1C exchange's session (server/catalogue/exchange): shared by every process through the database */
export interface ExchangeSessionTable {
  /** SHA-256 (hex) of the cookie 1C was given */
  id: string
  createdAt: string
  expiresAt: string
  runId: number | null
  /** JSON: where the import is */
  state: string | null
}

/** A part of a file 1C sent in a session, in order (`seq`) */
export interface ExchangeFileTable {
  id: Generated<number>
  sessionId: string
  name: string
  seq: number
  size: number
  bytes: Buffer
}

export type ExchangeRunStatus = 'running' | 'success' | 'failure'

/** One exchange of the catalogue, as the back office's log shows it */
export interface ExchangeRunTable {
  id: Generated<number>
  startedAt: string
  finishedAt: string | null
  status: ExchangeRunStatus
  /** JSON: files, counts, skipped rows */
  report: string
  message: string | null
}

/** A section or product the exchange made, by 1C's Ид */
export interface ExchangeRecordTable {
  kind: 'group' | 'product'
  externalId: string
  structureId: number
  seenRun: number
  withdrawn: ColumnType<Flag, Flag | undefined, Flag>
  /** The run that made the record (its product takes every field in that run); null: made before migration 033 */
  createdRun: ColumnType<number | null, number | null | undefined, number | null>
}

/** An item of a file the import parsed once (staged): read by position, a step at a time */
export interface ExchangeStagedTable {
  sessionId: string
  file: string
  kind: 'group' | 'product' | 'offer'
  pos: number
  /** 1C's Ид (an offer's: its product's) */
  itemId: string
  /** JSON */
  payload: string
}
