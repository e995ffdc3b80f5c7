// DELETE /api/structure?id=N (docs/contract.md §3): a record without children leaves with its parts,
// and its URL joins goneUrl, so it answers 410 «страница удалена» instead of 404. Through the write
// door: the checks, the rows and the door's effects go together or not at all.
import type { WriteDoor } from '../catalogue/write-door'
import { deleteRecordAndParts, loadDeletable } from '../content/structure-store'
import { HttpError } from '../http/http-error'

const MAX_ID = 2147483647

/** The `id` query parameter as a record id; 400 with a Russian message otherwise. */
export function parseDeleteId(raw: unknown): number {
  const id = typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN
  if (!(id <= MAX_ID)) {
    throw new HttpError(400, 'Укажите id удаляемой записи: целое положительное число', 'validation_failed', {
      id: 'Ожидается целое положительное число',
    })
  }
  return id
}

export async function deleteStructureRecord(door: WriteDoor, id: number): Promise<void> {
  await door.write(async (unit) => {
    const record = await loadDeletable(unit.trx, id)
    if (!record) throw new HttpError(404, `Запись structure с id = ${id} не найдена`, 'not_found')
    if (record.urlFull === '/') {
      throw new HttpError(409, 'Главную страницу сайта («/») удалить нельзя', 'conflict')
    }
    if (record.children > 0) {
      throw new HttpError(409, 'Сначала удалите или перенесите вложенные записи', 'has_children')
    }
    // Its search row goes, and its URL (now 410) and its parent's go to IndexNow (the door).
    await deleteRecordAndParts(unit, id, record.urlFull)
  })
}
