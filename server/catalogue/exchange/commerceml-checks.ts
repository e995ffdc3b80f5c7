// What the 1C exchange refuses of a parsed CommerceML file before anything is written
// (docs/decisions/032-1c-exchange.md, issue 43): a number that is not a plain decimal, a price or a
// quantity no column can hold, a second record with one Ид (the last is kept, as 1C means it), and
// groups nested past MAX_GROUP_DEPTH (their goods go to the deepest section allowed, which also
// bounds a URL the exchange makes: 10 segments of at most 80 characters). Each refusal names the
// item by its Ид and Наименование, for the exchange's log and 1C's operator.
import { groupDigits, MAX_PRICE_RUBLES, parseMoney, type Kopecks } from '../../../src/format/money'

/** A group as 1C's classifier gives it (commerceml-records.ts's CmlGroup) */
interface Group {
  readonly id: string
  readonly name: string
  readonly parentId: string | null
}

/** Levels of 1C's groups the catalogue takes under its top section */
export const MAX_GROUP_DEPTH = 10
/** The largest quantity in stock (or below zero) the site takes */
export const MAX_QUANTITY = 1_000_000_000

/** An item the exchange did not take as 1C sent it, and why (Russian, for the log and 1C). */
export interface Refusal {
  readonly what: string
  readonly why: string
}

/** How the log and 1C name an item: its kind, Ид and Наименование. */
export function itemName(kind: 'Товар' | 'Группа' | 'Предложение', id: string, name: string | null): string {
  const shown = (text: string, max: number) => {
    const line = text.replace(/\s+/g, ' ')
    return line.length > max ? `${line.slice(0, max)}…` : line
  }
  return name ? `${kind} ${shown(id, 80)} «${shown(name, 120)}»` : `${kind} ${shown(id, 80)}`
}

const DECIMAL = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/

/**
 * A number as 1C writes it (`1 234,50`, `1234.5`): a plain decimal only; `0x10`, `1e308` and
 * `Infinity` are not. Undefined when there is no value, null when there is one that is not a number.
 */
export function cmlDecimal(raw: string | null | undefined): number | null | undefined {
  if (raw == null) return undefined
  const compact = raw.replace(/[\s\u00a0]/g, '')
  if (compact === '') return undefined
  if (!DECIMAL.test(compact) || compact.length > 40) return null
  return Number(compact.replace(',', '.'))
}

/**
 * A price 1C sent (`1299.90`, `1 299,90`), exactly in kopecks (more decimals round half up to the
 * kopeck), or why it is refused: not a plain decimal, negative, past the maximum.
 */
export function cmlPrice(raw: string): { readonly kopecks: Kopecks } | { readonly why: string } {
  const read = parseMoney(raw, { round: true })
  if (read.ok) return { kopecks: read.kopecks }
  const shown = raw.slice(0, 40)
  if (read.reason === 'отрицательная цена') return { why: `цена ${shown} отрицательная` }
  if (read.reason.startsWith('больше')) return { why: `цена ${shown} больше ${groupDigits(MAX_PRICE_RUBLES)} ₽` }
  return { why: `цена «${shown}» не является десятичным числом` }
}

/** Why a quantity 1C sent is refused; null when the site takes it. */
export function quantityProblem(raw: string, value: number | null): string | null {
  if (value === null) return `Количество «${raw.slice(0, 40)}» не является десятичным числом`
  if (Math.abs(value) > MAX_QUANTITY) return `Количество ${raw.slice(0, 40)} больше ${groupDigits(MAX_QUANTITY)}`
  return null
}

/** The items with distinct Ид, the last of each kept where it stands; the earlier ones refused. */
export function lastOfEach<T extends { readonly id: string }>(
  items: readonly T[],
  name: (item: T) => string,
  why: string,
  refused: Refusal[],
): T[] {
  const last = new Map<string, number>()
  items.forEach((item, i) => last.set(item.id, i))
  if (last.size === items.length) return [...items]
  return items.filter((item, i) => {
    if (last.get(item.id) === i) return true
    refused.push({ what: name(item), why })
    return false
  })
}

/**
 * 1C's groups (in document order, a parent before its children) with distinct Ид (the last kept),
 * parents first, at most MAX_GROUP_DEPTH deep. `alias` gives a group past the depth the group of
 * the deepest section its goods go to. No recursion: a file may nest 20,000 groups.
 */
export function boundedGroups<CmlGroup extends Group>(
  groups: readonly CmlGroup[],
  refused: Refusal[],
): { groups: CmlGroup[]; alias: Record<string, string> } {
  const unique = lastOfEach(
    groups,
    (g) => itemName('Группа', g.id, g.name),
    'Ид повторяется в файле: взята последняя группа с этим Ид',
    refused,
  )
  const byId = new Map(unique.map((g) => [g.id, g]))
  const depth = new Map<string, number>()
  const alias: Record<string, string> = {}
  const out: CmlGroup[] = []
  for (const group of unique) {
    if (depth.has(group.id)) continue
    // The group and its ancestors not yet placed, nearest first; a loop (only duplicates make one) ends it.
    const chain: CmlGroup[] = []
    const inChain = new Set<string>()
    let at: CmlGroup | undefined = group
    while (at && !depth.has(at.id) && !inChain.has(at.id)) {
      chain.push(at)
      inChain.add(at.id)
      at = at.parentId === null ? undefined : byId.get(at.parentId)
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const g = chain[i]
      const parent = g.parentId !== null && depth.has(g.parentId) ? g.parentId : null
      const level = parent === null ? 1 : depth.get(parent)! + 1
      depth.set(g.id, level)
      if (level <= MAX_GROUP_DEPTH) {
        out.push(parent === g.parentId ? g : { ...g, parentId: parent })
        continue
      }
      alias[g.id] = level === MAX_GROUP_DEPTH + 1 ? parent! : alias[parent!]
      refused.push({
        what: itemName('Группа', g.id, g.name),
        why: `группа глубже ${MAX_GROUP_DEPTH} уровней: её товары в разделе группы ${alias[g.id]}`,
      })
    }
  }
  return { groups: out, alias }
}
