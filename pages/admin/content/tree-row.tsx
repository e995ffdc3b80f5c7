// A row of the content tree (ContentTree.tsx): its head (the toggle, the link, the counts, the
// type, the address and the badges) and its ↑/↓ buttons.
import type { TreeRecord } from '../../../src/admin/admin-api'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { TYPE_LABELS } from './editor/record-draft'

const count = new Intl.NumberFormat('ru-RU')

export function TreeRowHead({ row, isOpen, onToggle }: { row: TreeRecord; isOpen: boolean; onToggle: () => void }) {
  return (
    <>
      {row.children > 0 ? (
        <button
          type="button"
          className="button button--quiet button--small tree__toggle"
          aria-expanded={isOpen}
          aria-label={`${isOpen ? 'Свернуть' : 'Открыть'} «${row.title}»`}
          onClick={onToggle}
        >
          {isOpen ? '▾' : '▸'}
        </button>
      ) : (
        <span className="tree__toggle" aria-hidden="true" />
      )}
      <a className="tree__link" href={ADMIN_PATHS.record(row.id)}>
        {row.title}
      </a>
      {row.children > 0 && (
        <span className="tree__count" title="Вложенных записей">
          {count.format(row.children)}
        </span>
      )}
      <span className="tree__type">{TYPE_LABELS[row.typeId as keyof typeof TYPE_LABELS] ?? row.typeId}</span>
      <span className="tree__url">{row.urlFull}</span>
      {!row.published && <span className="admin-badge admin-badge--warn">Черновик</span>}
      {row.status === 410 && <span className="admin-badge admin-badge--danger">Снята с публикации (410)</span>}
    </>
  )
}

export function OrderButtons(props: {
  title: string
  upDisabled: boolean
  downDisabled: boolean
  downHidden: boolean
  onMove: (to: 'up' | 'down') => void
}) {
  const { title, upDisabled, downDisabled, downHidden, onMove } = props
  return (
    <span className="tree__order">
      <button
        type="button"
        className="button button--quiet button--small"
        disabled={upDisabled}
        aria-label={`«${title}»: выше`}
        onClick={() => onMove('up')}
      >
        ↑
      </button>
      <button
        type="button"
        className="button button--quiet button--small"
        disabled={downDisabled}
        hidden={downHidden}
        aria-label={`«${title}»: ниже`}
        onClick={() => onMove('down')}
      >
        ↓
      </button>
    </span>
  )
}
