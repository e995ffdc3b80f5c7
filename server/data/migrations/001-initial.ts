// Forward-only: a released migration is never edited, a new file follows it.
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('structure')
    .$call(idColumn(db))
    .addColumn('parentId', 'integer', (c) => c.references('structure.id').onDelete('cascade'))
    .addColumn('typeId', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(500)', (c) => c.notNull())
    .addColumn('urlFull', 'varchar(1000)', (c) => c.notNull().unique())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer')
    .addColumn('content', 'text')
    .addColumn('metaTitle', 'varchar(500)')
    .addColumn('metaDescription', 'text')
    .addColumn('metaImage', 'varchar(1000)')
    .addColumn('metaRobots', 'varchar(200)')
    .addColumn('metaJsonLd', 'text')
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('updatedAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('structure_parent_sort').on('structure').columns(['parentId', 'sort']).execute()
  await db.schema.createIndex('structure_type').on('structure').column('typeId').execute()

  await db.schema
    .createTable('siteIndex')
    .addColumn('structureId', 'integer', (c) => c.primaryKey().references('structure.id').onDelete('cascade'))
    .addColumn('logo', 'varchar(1000)')
    .addColumn('tel', 'varchar(100)')
    .addColumn('telText', 'varchar(200)')
    .addColumn('description', 'text')
    .addColumn('copyright', 'varchar(500)')
    .execute()

  await db.schema
    .createTable('product')
    .addColumn('structureId', 'integer', (c) => c.primaryKey().references('structure.id').onDelete('cascade'))
    .addColumn('image', 'varchar(1000)')
    .addColumn('article', 'varchar(100)')
    .addColumn('price', 'integer')
    .addColumn('description', 'text')
    .execute()

  await db.schema
    .createTable('sliderItem')
    .$call(idColumn(db))
    .addColumn('structureId', 'integer', (c) => c.notNull().references('structure.id').onDelete('cascade'))
    .addColumn('image', 'varchar(1000)', (c) => c.notNull())
    .addColumn('title', 'varchar(500)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('slider_item_structure').on('sliderItem').columns(['structureId', 'sort']).execute()

  await db.schema
    .createTable('advantage')
    .$call(idColumn(db))
    .addColumn('structureId', 'integer', (c) => c.notNull().references('structure.id').onDelete('cascade'))
    .addColumn('image', 'varchar(1000)')
    .addColumn('title', 'varchar(500)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('advantage_structure').on('advantage').columns(['structureId', 'sort']).execute()

  await db.schema
    .createTable('orderType')
    .$call(idColumn(db))
    .addColumn('type', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(500)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('feedback')
    .$call(idColumn(db))
    .addColumn('username', 'varchar(190)', (c) => c.notNull())
    .addColumn('email', 'varchar(400)', (c) => c.notNull())
    .addColumn('phone', 'varchar(400)', (c) => c.notNull())
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('goneUrl')
    .addColumn('urlFull', 'varchar(1000)', (c) => c.primaryKey())
    .addColumn('goneAt', 'varchar(40)', (c) => c.notNull())
    .execute()
}
