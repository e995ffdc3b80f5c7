// Forward-only: a released migration is never edited, a new file follows it.
// A section's list read from its index alone (issue 46, docs/decisions/042-characteristics-and-filters.md,
// "Speed"): every listing query (a section's page and count, its filters' counts, the sitemap's
// children) reads the section's records by (parentId, sort) and then checks each one's type and
// visibility. Those columns were in the table's row, after the record's content, so each of a long
// section's records cost a row read (and, with a long description, its overflow pages) per query:
// five queries of a filtered page read 1,500 rows each. The index now carries them, in the order
// the pages list (sort, then id), and replaces (parentId, sort), of which it is a superset.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('structure_section_list')
    .on('structure')
    .columns(['parentId', 'sort', 'id', 'typeId', 'published', 'visible', 'status'])
    .execute()
  await db.schema.dropIndex('structure_parent_sort').execute()
}
