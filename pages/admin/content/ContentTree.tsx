import './content.css'
import { useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { TreeRecord } from '../../../src/admin/admin-api'
import { useAdminApi } from '../layout/admin-context'
import { AdminError } from '../layout/AdminError'
import { MoveRecord } from './MoveRecord'
import { TREE_PAGE, useTree, type Branch } from './use-tree'
import { ContentSearch } from './ContentSearch'
import { RemoveDemo } from './RemoveDemo'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { OrderButtons, TreeRowHead } from './tree-row'

const count = new Intl.NumberFormat('ru-RU')

/**
 * /admin/content: the structure as a tree that loads as it is opened (issue 27, decision 028):
 * the top level first, a section's children when it is opened, 50 at a time, in the site's order,
 * with the number of records under each one. ↑/↓ move a record among the loaded siblings;
 * «Перенести» moves it to another section.
 */
export function ContentTree() {
  const api = useAdminApi()
  const tree = useTree(api)
  const [message, setMessage] = useState('')
  const [busy, setBusy] = useState(false)
  const [moving, setMoving] = useState<number | null>(null)

  /** The branch that lists the record with this id (to refresh its child count). */
  function branchOf(id: number | null): number | null | undefined {
    if (id === null) return undefined
    for (const [parentId, branch] of tree.branches) if (branch.rows.some((r) => r.id === id)) return parentId
    return undefined
  }

  async function reorder(parentId: number | null, branch: Branch, index: number, to: number) {
    const row = branch.rows[index]
    setBusy(true)
    tree.setError(null)
    try {
      await api.orderRecord(row.id, to < index ? 'up' : 'down')
      tree.swap(parentId, index, to)
      setMessage(`«${row.title}» теперь ${to + 1}-я из ${count.format(branch.total)}`)
    } catch (failure) {
      tree.setError(failure instanceof ApiError ? failure.message : 'Не удалось изменить порядок')
      await tree.reload([parentId])
    } finally {
      setBusy(false)
    }
  }

  async function moved(row: TreeRecord, from: number | null, to: number, urlFull: string) {
    setMoving(null)
    setMessage(`«${row.title}» перенесена, адрес: ${urlFull}`)
    const around = [branchOf(from), branchOf(to)].filter((id): id is number | null => id !== undefined)
    await tree.reload([from, to, ...around])
  }

  function rowView(parentId: number | null, branch: Branch, row: TreeRecord, index: number) {
    const isOpen = tree.open.has(row.id)
    const lastLoaded = index === branch.rows.length - 1
    return (
      <li key={row.id} className="tree__item">
        <div className="tree__row">
          <TreeRowHead row={row} isOpen={isOpen} onToggle={() => tree.toggle(row.id)} />
          <OrderButtons
            title={row.title}
            upDisabled={busy || index === 0}
            // The next sibling must be on screen: below the last loaded one, load more first.
            downDisabled={busy || (lastLoaded && branch.next === null)}
            downHidden={lastLoaded && branch.next !== null}
            onMove={(to) => void reorder(parentId, branch, index, to === 'up' ? index - 1 : index + 1)}
          />
          {row.urlFull !== '/' && (
            <button
              type="button"
              className="button button--quiet button--small"
              aria-expanded={moving === row.id}
              aria-label={`Перенести «${row.title}» в другой раздел`}
              onClick={() => setMoving(moving === row.id ? null : row.id)}
            >
              Перенести
            </button>
          )}
          <a
            className="tree__add"
            href={ADMIN_PATHS.newRecord({ parentId: row.id })}
            aria-label={`Добавить запись в «${row.title}»`}
          >
            + вложенная
          </a>
        </div>
        {moving === row.id && (
          <MoveRecord
            record={row}
            onMoved={(from, to, urlFull) => void moved(row, from, to, urlFull)}
            onCancel={() => setMoving(null)}
          />
        )}
        {isOpen && branchView(row.id, row.title)}
      </li>
    )
  }

  function branchView(parentId: number | null, title?: string) {
    const branch = tree.branches.get(parentId)
    if (!branch) return null
    const left = branch.total - branch.rows.length
    return (
      <div
        className="tree__branch"
        aria-busy={branch.loading}
        role={title ? 'group' : undefined}
        aria-label={title ? `Вложенные в «${title}»` : undefined}
      >
        {branch.rows.length > 0 && (
          <ul className="tree">{branch.rows.map((row, index) => rowView(parentId, branch, row, index))}</ul>
        )}
        {branch.loading && <p role="status">Загружаем…</p>}
        {branch.next !== null && !branch.loading && (
          <button
            type="button"
            className="button button--quiet button--small tree__more"
            onClick={() => void tree.loadMore(parentId)}
          >
            Показать ещё {count.format(Math.min(TREE_PAGE, left))} из {count.format(branch.total)}
          </button>
        )}
      </div>
    )
  }

  return (
    <section aria-labelledby="content-title">
      <div className="admin-title-row">
        <h1 id="content-title">Содержимое сайта</h1>
        <a className="button button--quiet" href={ADMIN_PATHS.newRecord({ typeId: 'index' })}>
          Новый сайт или лендинг
        </a>
      </div>
      <RemoveDemo onRemoved={() => void tree.reload([...tree.branches.keys()])} />
      <ContentSearch />
      <AdminError message={tree.error} />
      <p className="visually-hidden" role="status">
        {message}
      </p>
      <nav aria-label="Структура сайта">{branchView(null)}</nav>
    </section>
  )
}
