// A price list's preview: the counts, the sections that will be created, every refused row with its
// number and reason (the first hundred, then all on request), and the first changes with their
// prices before and after; the models' variants (decision 043) counted apart, and the ones a model
// no longer names, which applying removes.
import { useId, useState, type ReactNode } from 'react'
import type { PricePreview } from '../../../src/admin/admin-price-list'
import { formatRubles } from '../../../src/format/money'

const FIRST_REFUSED = 100

const price = (value: number | null) => (value === null ? 'по запросу' : formatRubles(value))

/**
 * A table that scrolls on its own on a phone instead of widening the page; the box takes the
 * keyboard's focus so that it can be scrolled without a mouse too (WCAG 2.1.1).
 */
function Table({ labelledBy, columns, children }: { labelledBy: string; columns: string[]; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable
    <div className="price-list__scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className="price-list__table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

export function PreviewView({ preview, children }: { preview: PricePreview; children: ReactNode }) {
  const id = useId()
  const [allRefused, setAllRefused] = useState(false)
  const refused = allRefused ? preview.refused : preview.refused.slice(0, FIRST_REFUSED)
  return (
    <div className="price-list__preview">
      <h3 id={`${id}-counts`}>Что изменится</h3>
      <dl className="price-list__counts" aria-labelledby={`${id}-counts`}>
        <div>
          <dt>Обновится</dt>
          <dd data-count="updated">{preview.updated}</dd>
        </div>
        <div>
          <dt>Будет создано</dt>
          <dd data-count="created">{preview.created}</dd>
        </div>
        <div>
          <dt>Без изменений</dt>
          <dd data-count="unchanged">{preview.unchanged}</dd>
        </div>
        <div>
          <dt>Отклонено</dt>
          <dd data-count="refused">{preview.refused.length}</dd>
        </div>
      </dl>
      <p className="price-list__hint">
        Строк в файле: {preview.rows}
        {preview.encoding ? `, кодировка ${preview.encoding}` : ''}.
      </p>
      {preview.variants && preview.variants.created + preview.variants.updated + preview.variants.removed > 0 && (
        <p className="price-list__hint" data-testid="variant-counts">
          Варианты товаров: новых {preview.variants.created}, изменится {preview.variants.updated}, будет удалено{' '}
          {preview.variants.removed}.
        </p>
      )}
      {preview.removedVariants?.length > 0 && (
        <p className="price-list__sections" data-testid="removed-variants">
          Будут удалены варианты, которых нет в файле:{' '}
          {preview.removedVariants.map((v) => (v.article ? `${v.title} (${v.article})` : v.title)).join('; ')}.
        </p>
      )}
      {preview.sections.length > 0 && (
        <p className="price-list__sections" data-testid="new-sections">
          Будут созданы разделы: {preview.sections.join(', ')}.
        </p>
      )}
      {children}
      {preview.refused.length > 0 && (
        <>
          <h3 id={`${id}-refused`}>Отклонённые строки</h3>
          <Table labelledBy={`${id}-refused`} columns={['Строка', 'Артикул', 'Причина']}>
            {refused.map((row) => (
              <tr key={row.number}>
                <td>{row.number}</td>
                <td>{row.article ?? '—'}</td>
                <td className="price-list__text">{row.reason}</td>
              </tr>
            ))}
          </Table>
          {refused.length < preview.refused.length && (
            <button type="button" className="button button--quiet" onClick={() => setAllRefused(true)}>
              Показать все отклонённые строки ({preview.refused.length})
            </button>
          )}
        </>
      )}
      {preview.sample.length > 0 && (
        <>
          <h3 id={`${id}-sample`}>Первые изменения</h3>
          <Table labelledBy={`${id}-sample`} columns={['Строка', 'Артикул', 'Цена', 'Наименование']}>
            {preview.sample.map((change) => (
              <tr key={change.number}>
                <td>{change.number}</td>
                <td>{change.article || '—'}</td>
                <td>
                  {change.price === null
                    ? 'не меняется'
                    : change.kind === 'create'
                      ? price(change.price[1])
                      : `${price(change.price[0])} → ${price(change.price[1])}`}
                </td>
                <td className="price-list__text">
                  {change.title}
                  {change.kind === 'create' && <span className="admin-badge admin-badge--ok">новый</span>}
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </div>
  )
}
