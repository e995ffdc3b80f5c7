// Forward-only: a released migration is never edited, a new file follows it.
// A section's list read from its index alone (issue 46, docs/decisions/042-characteristics-and-filters.md,
// "A section's list from one index"): every public listing query (a section's page and count, its
// filters' counts) reads the section's products by (parentId, typeId) and then checks each one's
// visibility. Those columns were in the table's row, after the record's content, so each of a long
// section's records cost a row read (and, with a long description, its overflow pages) per query:
// five queries of a filtered page read 1,500 rows each. This index carries them, in the order the
// pages list (sort, then id). (parentId, sort) stays for the back office's tree, which lists
// children of every type: a wider index on (parentId, sort, …) alone made SQLite's planner read a
// section sorted by price through the typeId index, every product of the catalogue (0.45 → 20 ms).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('structure_section_list')
    .on('structure')
    .columns(['parentId', 'typeId', 'sort', 'id', 'published', 'visible', 'status'])
    .execute()
}
