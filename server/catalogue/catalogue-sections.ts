// The catalogue's sections as an import sees them (issue #35): found by title, by address or by a
// path of titles («Электроинструмент / Дрели»), and the ones a path names that do not exist yet,
// planned first (the preview lists them, writing nothing) and created later through the write
// door. A new section is a published record of type `section`, last among its parent's children,
// its URL its parent's and its title transliterated (free-urls.ts). A path's first title is looked
// for among all sections, the next ones among the children of the one before; a first title no
// section has makes a section at the top of the catalogue (the first section under the home page,
// `/structure/` in the demo).
import type { Kysely } from 'kysely'
import type { Database } from '../data/schema'
import type { ContentWrite } from '../content/content-write'
import { forgetGoneUrl, insertRecord, sortAfterLastChild } from '../content/structure-store'
import { findFreeUrls } from './free-urls'

export interface SectionEntry {
  readonly id: number
  readonly parentId: number | null
  readonly title: string
  readonly urlFull: string
}

/** A section an import will create: under an existing one or under another new one. */
export interface NewSection {
  readonly key: string
  readonly title: string
  readonly parent: SectionEntry | NewSection | null
  /** The titles from the top, joined with « / » (the preview shows it) */
  readonly path: string
}

export function isNewSection(section: SectionEntry | NewSection): section is NewSection {
  return 'key' in section
}

/** Titles compare without case, extra spaces or the difference of ё and е. */
export function sectionKey(title: string): string {
  return title.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim()
}

/** Where new top sections go: the first top-level section, else the home page, else the root. */
export interface Home {
  readonly id: number | null
  readonly urlFull: string
}

export interface SectionTree {
  readonly sections: readonly SectionEntry[]
  readonly home: Home
}

/** Every section (a catalogue has tens or hundreds of them, not thousands) and where new ones go. */
export async function loadSectionTree(db: Kysely<Database>): Promise<SectionTree> {
  const sections = await db
    .selectFrom('structure')
    .select(['id', 'parentId', 'title', 'urlFull', 'sort'])
    .where('typeId', '=', 'section')
    .orderBy('sort')
    .orderBy('id')
    .execute()
  const ids = new Set(sections.map((s) => s.id))
  const top = sections.find((s) => s.parentId === null || !ids.has(s.parentId))
  let home: Home
  if (top) home = { id: top.id, urlFull: top.urlFull }
  else {
    const index = await db
      .selectFrom('structure')
      .select(['id', 'urlFull'])
      .where('typeId', '=', 'index')
      .orderBy('id')
      .executeTakeFirst()
    home = index ?? { id: null, urlFull: '/' }
  }
  return { sections: sections.map(({ sort: _sort, ...s }) => s), home }
}

/**
 * Resolves a section named by an import: `/structure/garden/` by address, a title any one section
 * has, or a path of titles «A / B / C», planning the sections it lacks. Returns the section (an
 * existing or a new one) or, as a string, why the name cannot be used. The finder remembers the
 * new sections it planned, so rows naming the same path share them (`planned()`).
 */
export function sectionResolver(tree: SectionTree) {
  const byTitle = new Map<string, SectionEntry[]>()
  const byUrl = new Map<string, SectionEntry>()
  const children = new Map<number | null, SectionEntry[]>()
  // Pushed, not copied: a copy per section took 0.5 s for 12,200 sections of one name.
  for (const section of tree.sections) {
    const key = sectionKey(section.title)
    const namesakes = byTitle.get(key)
    if (namesakes) namesakes.push(section)
    else byTitle.set(key, [section])
    byUrl.set(section.urlFull.replace(/\/+$/, ''), section)
    const siblings = children.get(section.parentId)
    if (siblings) siblings.push(section)
    else children.set(section.parentId, [section])
  }
  const planned = new Map<string, NewSection>()
  const home: SectionEntry | null =
    tree.sections.find((s) => s.id === tree.home.id) ??
    (tree.home.id === null ? null : { id: tree.home.id, parentId: null, title: '', urlFull: tree.home.urlFull })

  const plan = (parent: SectionEntry | NewSection | null, title: string): NewSection => {
    const parentKey = parent === null ? '' : isNewSection(parent) ? parent.key : `#${parent.id}`
    const key = `${parentKey}/${sectionKey(title)}`
    let section = planned.get(key)
    if (!section) {
      const path =
        parent && isNewSection(parent)
          ? `${parent.path} / ${title}`
          : parent && parent !== home
            ? `${parent.title} / ${title}`
            : title
      section = { key, title, parent, path }
      planned.set(key, section)
    }
    return section
  }

  const resolve = (text: string): SectionEntry | NewSection | string => {
    if (text.startsWith('/')) return byUrl.get(text.replace(/\/+$/, '')) ?? `Раздел «${text}» не найден на сайте`
    const whole = byTitle.get(sectionKey(text)) ?? []
    if (whole.length === 1) return whole[0]
    const titles = text
      .split('/')
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter((part) => part !== '')
    if (titles.length === 0) return `Раздел «${text}»: не указано название`
    if (titles.length > 10) return `Раздел «${text}»: больше 10 уровней вложенности`
    if (titles.some((t) => t.length > 200)) return `Раздел «${text}»: название длиннее 200 символов`
    let current: SectionEntry | NewSection | null = null
    for (const [i, title] of titles.entries()) {
      const key = sectionKey(title)
      if (current === null || !isNewSection(current)) {
        const candidates: SectionEntry[] =
          i === 0
            ? (byTitle.get(key) ?? [])
            : (children.get(current!.id) ?? []).filter((s) => sectionKey(s.title) === key)
        if (candidates.length > 1) {
          return `Разделов «${title}» несколько: укажите адрес раздела, например ${candidates[0].urlFull}`
        }
        if (candidates.length === 1) {
          current = candidates[0]
          continue
        }
      }
      current = plan(i === 0 ? home : current, title)
    }
    return current!
  }

  return { resolve, planned: (): NewSection[] => [...planned.values()] }
}

/**
 * Creates the planned sections, parents first, inside the import's claim: one door write per
 * level (a few sections each). Returns each new section's id and URL by its key.
 */
export async function createSections(
  door: { write<T>(work: (unit: ContentWrite) => Promise<T>): Promise<T> },
  db: Kysely<Database>,
  sections: readonly NewSection[],
  home: SectionTree['home'],
  renew: (unit: ContentWrite) => Promise<void> = async () => {},
): Promise<Map<string, SectionEntry>> {
  const made = new Map<string, SectionEntry>()
  const depth = (s: NewSection): number => (s.parent && isNewSection(s.parent) ? depth(s.parent) + 1 : 0)
  const levels: NewSection[][] = []
  for (const section of sections) (levels[depth(section)] ??= []).push(section)
  for (const level of levels) {
    if (!level) continue
    const parents: Home[] = level.map((s) =>
      s.parent === null ? home : isNewSection(s.parent) ? made.get(s.parent.key)! : s.parent,
    )
    const urls = await findFreeUrls(
      db,
      level.map((s, i) => ({ parentUrl: parents[i].urlFull, name: s.title, fallback: 'razdel', folder: true })),
    )
    await door.write(async (unit) => {
      await renew(unit)
      for (const [i, section] of level.entries()) {
        const parentId = parents[i].id
        await forgetGoneUrl(unit, urls[i])
        const id = await insertRecord(unit, {
          parentId,
          typeId: 'section',
          title: section.title,
          urlFull: urls[i],
          sort: parentId === null ? 0 : await sortAfterLastChild(unit.trx, parentId),
          published: 1,
        })
        made.set(section.key, { id, parentId, title: section.title, urlFull: urls[i] })
      }
    })
  }
  return made
}
