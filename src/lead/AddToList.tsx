import { useState } from 'react'
import type { FormEvent } from 'react'
import { PATHS } from '../site/paths'
import { addToRequestList } from './add-to-list'
import { REQUEST_LIST_TEXTS as T } from './request-list-view'
import { QUANTITY_INPUT } from './request-list'

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'added' } | { kind: 'failed'; message: string }

/**
 * «В заявку» with a quantity on a product page: a plain form posting to the request list (which
 * answers 303 to the list page), so it works without JavaScript; with it the product is added in
 * place and the header's counter follows (docs/decisions/041-request-list.md).
 */
export function AddToList({ productId, title, variantId }: { productId: number; title: string; variantId?: number }) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' })

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (status.kind === 'sending') return
    const form = event.currentTarget
    setStatus({ kind: 'sending' })
    const outcome = await addToRequestList(form)
    setStatus(outcome.ok ? { kind: 'added' } : { kind: 'failed', message: outcome.message })
  }

  const id = `add-${productId}`
  return (
    <form className="add-to-list" method="post" action={PATHS.requestList} onSubmit={submit}>
      <input type="hidden" name="action" value="add" />
      <input type="hidden" name="productId" value={productId} />
      {/* The chosen variant of the product (docs/decisions/043-variants.md) */}
      {variantId !== undefined && <input type="hidden" name="variantId" value={variantId} />}
      <label htmlFor={id}>{T.quantity}</label>
      <input
        className="add-to-list__qty"
        id={id}
        {...QUANTITY_INPUT}
        defaultValue={1}
        onChange={() => status.kind !== 'sending' && setStatus({ kind: 'idle' })}
      />
      <button className="button" type="submit" disabled={status.kind === 'sending'} aria-label={`${T.add}: ${title}`}>
        {T.add}
      </button>
      <p className="add-to-list__status" role="status">
        {status.kind === 'added' && (
          <>
            {`${T.added}. `}
            <a href={PATHS.requestList}>{T.open}</a>
          </>
        )}
        {status.kind === 'failed' && status.message}
      </p>
    </form>
  )
}
