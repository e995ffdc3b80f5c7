import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { AdminApi, TreeRecord } from '../../../src/admin/admin-api'

/** Children asked for at once: «Показать ещё 50» */
export const TREE_PAGE = 50
/** The most one request may ask for when a branch is read again after a change */
const RELOAD_PAGE = 200
/**
 * The first screen opens small branches by itself (a shop's few sections, a section's few
 * products), breadth first: those with at most this many children, this many branches in all.
 */
const AUTO_OPEN_CHILDREN = 30
const AUTO_OPEN_BRANCHES = 12

/** The loaded part of one record's children (the key null: the top level). */
export interface Branch {
  readonly rows: readonly TreeRecord[]
  readonly total: number
  /** Where the next page starts; null when every child is loaded */
  readonly next: number | null
  readonly loading: boolean
}

export interface Tree {
  readonly branches: ReadonlyMap<number | null, Branch>
  readonly open: ReadonlySet<number>
  readonly error: string | null
  setError(message: string | null): void
  toggle(id: number): void
  /** The next 50 children of the record (null: of the top level). */
  loadMore(parentId: number | null): Promise<void>
  /** Reads these branches again, as many rows as they showed (after a move). */
  reload(parentIds: ReadonlyArray<number | null>): Promise<void>
  /** Swaps two loaded siblings on screen (after the server moved one of them). */
  swap(parentId: number | null, from: number, to: number): void
}

function failureText(failure: unknown, fallback: string): string {
  return failure instanceof ApiError ? failure.message : fallback
}

/**
 * The content tree as the back office holds it: the top level, and for each section opened the
 * pages of its children loaded so far. Nothing else is read, so a catalogue of 10,000 products
 * costs one page per opened section, and the DOM holds only what was asked for.
 */
export function useTree(api: AdminApi): Tree {
  const [branches, setBranches] = useState<ReadonlyMap<number | null, Branch>>(new Map())
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set())
  const [error, setError] = useState<string | null>(null)
  // What the callbacks read of the branches (the state of the last render).
  const current = useRef(branches)
  useEffect(() => {
    current.current = branches
  }, [branches])

  const autoOpened = useRef(0)

  const put = useCallback((parentId: number | null, change: (branch: Branch | undefined) => Branch) => {
    setBranches((map) => new Map(map).set(parentId, change(map.get(parentId))))
  }, [])

  const loadMore = useCallback(
    (parentId: number | null, signal?: AbortSignal) => {
      async function load(parentId: number | null, signal?: AbortSignal): Promise<void> {
        const before = current.current.get(parentId)
        if (before?.loading) return
        const skip = before?.next ?? 0
        put(parentId, (b) => ({ rows: b?.rows ?? [], total: b?.total ?? 0, next: b?.next ?? null, loading: true }))
        try {
          const page = await api.children(parentId, skip, TREE_PAGE, signal)
          put(parentId, (b) => ({
            rows: [...(skip === 0 ? [] : (b?.rows ?? [])), ...page.data],
            total: page.total,
            next: page.next?.skip ?? null,
            loading: false,
          }))
          if (skip === 0) {
            const small = page.data.filter((row) => row.children > 0 && row.children <= AUTO_OPEN_CHILDREN)
            const opened = small.slice(0, Math.max(0, AUTO_OPEN_BRANCHES - autoOpened.current))
            autoOpened.current += opened.length
            if (opened.length > 0) setOpen((set) => new Set([...set, ...opened.map((row) => row.id)]))
            await Promise.all(opened.map((row) => load(row.id, signal)))
          }
        } catch (failure) {
          put(parentId, (b) => ({ rows: b?.rows ?? [], total: b?.total ?? 0, next: b?.next ?? skip, loading: false }))
          if (!signal?.aborted) setError(failureText(failure, 'Не удалось загрузить структуру'))
        }
      }
      return load(parentId, signal)
    },
    [api, put],
  )

  useEffect(() => {
    const controller = new AbortController()
    void loadMore(null, controller.signal)
    return () => controller.abort()
  }, [loadMore])

  const toggle = useCallback(
    (id: number) => {
      const opening = !open.has(id)
      setOpen((set) => {
        const next = new Set(set)
        if (opening) next.add(id)
        else next.delete(id)
        return next
      })
      if (opening && !current.current.has(id)) void loadMore(id)
    },
    [open, loadMore],
  )

  const reload = useCallback(
    async (parentIds: ReadonlyArray<number | null>) => {
      for (const parentId of new Set(parentIds)) {
        const shown = current.current.get(parentId)
        if (!shown) continue
        const want = Math.max(TREE_PAGE, shown.rows.length)
        const rows: TreeRecord[] = []
        let total = 0
        let next: number | null = 0
        try {
          while (next !== null && rows.length < want) {
            const page = await api.children(parentId, next, Math.min(RELOAD_PAGE, want - rows.length))
            rows.push(...page.data)
            total = page.total
            next = page.data.length > 0 ? (page.next?.skip ?? null) : null
          }
          put(parentId, () => ({ rows, total, next, loading: false }))
        } catch (failure) {
          setError(failureText(failure, 'Не удалось загрузить структуру'))
        }
      }
    },
    [api, put],
  )

  const swap = useCallback(
    (parentId: number | null, from: number, to: number) =>
      put(parentId, (b) => {
        const rows = [...(b?.rows ?? [])]
        const [row] = rows.splice(from, 1)
        if (row) rows.splice(to, 0, row)
        return { rows, total: b?.total ?? rows.length, next: b?.next ?? null, loading: false }
      }),
    [put],
  )

  return { branches, open, error, setError, toggle, loadMore, reload, swap }
}
