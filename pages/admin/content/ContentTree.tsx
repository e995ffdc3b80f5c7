import './content.css'
import { useCallback, useEffect, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { useAdminApi } from '../layout/admin-context'
import { TYPE_LABELS, type RecordDraft } from './editor/record-draft'
import { AdminError } from '../layout/AdminError'
import { ContentSearch } from './ContentSearch'

/** A record as the tree lists it: the draft's identity and state, with its saved id and order. */
type Row = Pick<RecordDraft, 'parentId' | 'typeId' | 'title' | 'urlFull' | 'published' | 'status'> & {
  id: number
  sort: number
}

const TREE_QUERY = {
  select: {
    id: true,
    parentId: true,
    typeId: true,
    title: true,
    urlFull: true,
    published: true,
    status: true,
    sort: true,
  },
  orderBy: [{ sort: 'asc' }, { id: 'asc' }],
}

/** /admin/content: every structure record as a tree, with its state and a way to add a child. */
export function ContentTree() {
  const api = useAdminApi()
  const [rows, setRows] = useState<Row[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [moved, setMoved] = useState('')
  const [busy, setBusy] = useState(false)

  const load = useCallback(
    (signal?: AbortSignal) =>
      api.models.many<Row>('structure', TREE_QUERY, { signal }).then(setRows, (failure: unknown) => {
        if (!signal?.aborted) setError(failure instanceof ApiError ? failure.message : 'Не удалось загрузить структуру')
      }),
    [api],
  )
  useEffect(() => {
    const controller = new AbortController()
    void load(controller.signal)
    return () => controller.abort()
  }, [load])

  /**
   * Moves a record one place among its siblings: the siblings are numbered 0, 1, 2… in the new
   * order and each whose number changes is written (usually two). A failure part-way is shown and
   * the tree is read again, so it always shows what is stored.
   */
  async function move(siblings: Row[], from: number, to: number) {
    const order = [...siblings]
    const [row] = order.splice(from, 1)
    if (!row) return
    order.splice(to, 0, row)
    setBusy(true)
    setError(null)
    try {
      for (const [sort, sibling] of order.entries()) {
        if (sibling.sort !== sort) await api.models.patch('structure', { id: sibling.id, sort })
      }
      setMoved(`«${row.title}» теперь ${to + 1}-я из ${order.length}`)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось изменить порядок')
    } finally {
      await load()
      setBusy(false)
    }
  }

  const children = new Map<number | null, Row[]>()
  const ids = new Set(rows?.map((r) => r.id))
  for (const row of rows ?? []) {
    // A record whose parent is missing is shown at the top rather than lost.
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), row])
  }

  function branch(parent: number | null) {
    const list = children.get(parent)
    if (!list) return null
    return (
      <ul className="tree">
        {list.map((row, index) => (
          <li key={row.id} className="tree__item">
            <div className="tree__row">
              <a className="tree__link" href={`/admin/content/${row.id}`}>
                {row.title}
              </a>
              <span className="tree__type">{TYPE_LABELS[row.typeId] ?? row.typeId}</span>
              <span className="tree__url">{row.urlFull}</span>
              {!row.published && <span className="admin-badge admin-badge--warn">Черновик</span>}
              {row.status === 410 && <span className="admin-badge admin-badge--danger">Снята с публикации (410)</span>}
              <span className="tree__order">
                <button
                  type="button"
                  className="button button--quiet button--small"
                  disabled={busy || index === 0}
                  aria-label={`«${row.title}»: выше`}
                  onClick={() => void move(list, index, index - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="button button--quiet button--small"
                  disabled={busy || index === list.length - 1}
                  aria-label={`«${row.title}»: ниже`}
                  onClick={() => void move(list, index, index + 1)}
                >
                  ↓
                </button>
              </span>
              <a
                className="tree__add"
                href={`/admin/content/new?parentId=${row.id}`}
                aria-label={`Добавить запись в «${row.title}»`}
              >
                + вложенная
              </a>
            </div>
            {branch(row.id)}
          </li>
        ))}
      </ul>
    )
  }

  return (
    <section aria-labelledby="content-title">
      <div className="admin-title-row">
        <h1 id="content-title">Содержимое сайта</h1>
        <a className="button button--quiet" href="/admin/content/new?typeId=index">
          Новый сайт или лендинг
        </a>
      </div>
      <ContentSearch />
      <AdminError message={error} />
      {!rows && !error && <p role="status">Загружаем структуру…</p>}
      <p className="visually-hidden" role="status">
        {moved}
      </p>
      {rows && <nav aria-label="Структура сайта">{branch(null)}</nav>}
    </section>
  )
}
