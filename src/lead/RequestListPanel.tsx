import { useState } from 'react'
import { formatMoney } from '../format/money'
import { PATHS } from '../site/paths'
import { LeadForm } from './LeadForm'
import type { LeadFormState } from './lead-form-state'
import type { LeadSettings } from './lead-settings'
import { formatRequestList, QUANTITY_INPUT } from './request-list'
import { REQUEST_LIST_TEXTS as T, type RequestListLineView, type RequestListView } from './request-list-view'
import './request-list.css'

export type RequestListPanelProps = {
  settings: LeadSettings
  view: RequestListView
  startedAt: number
  idempotencyKey: string
  initialState: LeadFormState | null
  /** Why the last change of the list was refused (a no-JS post rendered back) */
  notice: string | null
}

/** One line: the product, its price, a quantity form («Изменить», «Удалить») and the line sum. */
function Line({ line }: { line: RequestListLineView }) {
  const qty = `q${line.productId}${line.variantId ? `v${line.variantId}` : ''}`
  return (
    <li className="request-line">
      <a className="request-line__title" href={line.url}>
        {line.title}
      </a>
      {line.article && <span className="request-line__article">{`Артикул: ${line.article}`}</span>}
      <span className="request-line__price">
        {line.price === null ? `Цена: ${T.onRequest}` : `Цена: ${formatMoney(line.price)}`}
      </span>
      <form className="request-line__form" method="post" action={PATHS.requestList}>
        <input type="hidden" name="productId" value={line.productId} />
        {line.variantId && <input type="hidden" name="variantId" value={line.variantId} />}
        <label className="request-line__label" htmlFor={qty}>
          {T.quantity}
        </label>
        <input className="request-line__qty" id={qty} {...QUANTITY_INPUT} defaultValue={line.quantity} />
        <button className="button button--small" type="submit" name="action" value="set">
          {T.update}
        </button>
        <button
          className="button button--small button--quiet"
          type="submit"
          name="action"
          value="remove"
          aria-label={`${T.remove}: ${line.title}`}
          formNoValidate
        >
          {T.remove}
        </button>
      </form>
      <span className="request-line__sum">{line.sum === null ? T.onRequest : formatMoney(line.sum)}</span>
    </li>
  )
}

/**
 * The request list page's body (docs/decisions/041-request-list.md): the lines, each changed or
 * removed by a plain form, the total, and the lead form that sends them as one lead. Without
 * JavaScript everything here posts and reloads; with it the lead is sent in place, and the list
 * goes away once it is (the server takes the sent products off the list).
 */
export function RequestListPanel({
  settings,
  view,
  startedAt,
  idempotencyKey,
  initialState,
  notice,
}: RequestListPanelProps) {
  const [sent, setSent] = useState(false)
  const hasLines = view.lines.length > 0
  return (
    <div className="request-list">
      {notice && (
        <p className="lead-form__failure" role="alert">
          {notice}
        </p>
      )}
      {view.gone > 0 && !sent && <p className="request-list__note">{T.gone}</p>}
      {!hasLines && !sent && <p className="request-list__empty">{T.empty}</p>}
      {hasLines && !sent && (
        <>
          <ul className="request-list__lines">
            {view.lines.map((line) => (
              <Line key={`${line.productId}v${line.variantId ?? 0}`} line={line} />
            ))}
          </ul>
          <p className="request-list__total">
            {`${T.total}: `}
            <strong>{view.total === null ? T.onRequest : formatMoney(view.total)}</strong>
          </p>
          {view.total === null && <p className="request-list__note">{T.partlyOnRequest}</p>}
        </>
      )}
      {hasLines && (
        <section className="request-list__send" aria-label={T.send}>
          {!sent && <h2>{T.send}</h2>}
          <LeadForm
            settings={settings}
            startedAt={startedAt}
            idempotencyKey={idempotencyKey}
            initialState={initialState}
            lines={formatRequestList(view.lines)}
            endpoint={`${PATHS.leadEndpoint}?spisok=1`}
            onSent={() => setSent(true)}
          />
        </section>
      )}
    </div>
  )
}
