// One bad item never blocks the 1C exchange's items after it (issue 43): a step whose write the
// database refuses for what is neither an outage (retried by 1C's next call) nor a refusal of the
// whole file is written again one item at a time, and an item the database still refuses is skipped,
// named by its Ид and Наименование in the exchange's log, with its position passed; so a call
// repeated after it goes on past it instead of failing the same way every time.
import type { FastifyBaseLogger } from 'fastify'
import { isDatabaseUnavailable } from '../../data/unavailable'
import { HttpError } from '../../http/http-error'
import { CmlError } from './commerceml'

/** Why an item the database refused was skipped (the error itself goes to the server's log). */
export const NOT_WRITTEN = 'не записан: база данных отказала в записи (подробности в журнале сервера)'

/** An error of the items written, not of the exchange, its file or the database being there. */
export function isItemError(error: unknown): boolean {
  return !(error instanceof CmlError) && !(error instanceof HttpError) && !isDatabaseUnavailable(error)
}

/**
 * Writes `items` with `write` (which returns its milliseconds); when the database refuses them,
 * each alone, and `skip`s an item it refuses alone. Returns the milliseconds written.
 */
export async function writeEachOnError<T>(
  items: readonly T[],
  write: (items: readonly T[]) => Promise<number>,
  skip: (item: T, why: string) => Promise<number>,
  name: (item: T) => string,
  log: FastifyBaseLogger,
): Promise<number> {
  try {
    return await write(items)
  } catch (error) {
    if (!isItemError(error)) throw error
    if (items.length === 1) {
      log.error({ err: error, item: name(items[0]) }, '1C exchange: the database refused an item; skipped')
      return skip(items[0], NOT_WRITTEN)
    }
  }
  let ms = 0
  for (const item of items) ms += await writeEachOnError([item], write, skip, name, log)
  return ms
}
