// The actions of «Товары» on the chosen products or on «все N по фильтру»: publish, hide, withdraw,
// move to a section, set availability, change the price by a percentage or an amount (optionally
// keeping the price before as the old price; a percent's result rounded as chosen), delete. Every
// action first asks the server how many products it would change and waits for the owner's yes
// (the in-page Confirm); then the products go to the server in batches, each one short write, and
// the status line counts them as they go.
import { useId, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import {
  ACTION_BATCH,
  AVAILABILITY_LABELS,
  type ProductActionInput,
  type ProductAvailability,
  type ProductsApi,
  type ActionPreview,
  sectionOptionText,
  type SectionOption,
} from '../../../src/admin/admin-products'
import { Confirm } from '../layout/Confirm'
import { LabelledSelect } from './LabelledSelect'
import { NEW_PRICE_DRAFT, PriceActionFields, priceActionOf, type PriceDraft } from './PriceActionFields'

type Kind = ProductActionInput['kind']

const KINDS: readonly [Kind, string][] = [
  ['price', 'Изменить цену'],
  ['availability', 'Изменить наличие'],
  ['publish', 'Опубликовать'],
  ['hide', 'Скрыть (черновик)'],
  ['withdraw', 'Снять с публикации'],
  ['move', 'Перенести в раздел'],
  ['delete', 'Удалить'],
]

export function ProductActions({
  api,
  sections,
  /** The chosen ids, or null: every product of the filter */
  targets,
  count,
  onDone,
}: {
  api: ProductsApi
  sections: readonly SectionOption[]
  targets: () => Promise<number[]>
  count: number
  onDone: () => void
}) {
  const id = useId()
  const [kind, setKind] = useState<Kind>('price')
  const [price, setPrice] = useState<PriceDraft>(NEW_PRICE_DRAFT)
  const [availability, setAvailability] = useState<ProductAvailability>('in_stock')
  const [sectionId, setSectionId] = useState('')
  const [status, setStatus] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  /** The action the owner is asked about, with its products and how many of them it changes */
  const [pending, setPending] = useState<{ action: ProductActionInput; ids: number[] } & ActionPreview>()

  function action(): ProductActionInput | string {
    switch (kind) {
      case 'price':
        return priceActionOf(price)
      case 'availability':
        return { kind, availability }
      case 'move':
        return sectionId ? { kind, sectionId: Number(sectionId) } : 'Выберите раздел'
      default:
        return { kind }
    }
  }

  async function ask() {
    const chosen = action()
    if (typeof chosen === 'string') {
      setError(chosen)
      return
    }
    setBusy(true)
    setError(null)
    setStatus('')
    try {
      const ids = await targets()
      const preview = ids.length === 0 ? { changes: 0, oneC: 0 } : await api.preview(ids, chosen)
      setPending({ action: chosen, ids, ...preview })
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось проверить действие. Попробуйте ещё раз.')
    } finally {
      setBusy(false)
    }
  }

  async function run() {
    if (!pending) return
    const { action: chosen, ids } = pending
    setBusy(true)
    setError(null)
    setPending(undefined)
    try {
      const operation = crypto.randomUUID()
      let done = 0
      let changed = 0
      for (let i = 0; i < ids.length; i += ACTION_BATCH) {
        changed += await api.act(operation, ids.slice(i, i + ACTION_BATCH), chosen)
        done = Math.min(ids.length, i + ACTION_BATCH)
        setStatus(`Обработано ${done} из ${ids.length}…`)
      }
      setStatus(`Готово: изменено товаров — ${changed}.`)
      onDone()
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось выполнить действие. Попробуйте ещё раз.')
    } finally {
      setBusy(false)
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    void ask()
  }

  return (
    <form className="admin-panel products__actions" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="products__subtitle">
        Действие с товарами: {count}
      </h2>
      <div className="admin-toolbar">
        <label className="products__field">
          <span>Действие</span>
          <select
            aria-label="Действие"
            className="field__control"
            value={kind}
            onChange={(e) => setKind(e.target.value as Kind)}
          >
            {KINDS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        {kind === 'price' && <PriceActionFields draft={price} onChange={setPrice} />}
        {kind === 'availability' && (
          <LabelledSelect
            label="Наличие"
            value={availability}
            options={AVAILABILITY_LABELS}
            onChange={(value) => setAvailability(value as ProductAvailability)}
          />
        )}
        {kind === 'move' && (
          <LabelledSelect
            label="Раздел"
            value={sectionId}
            options={sections.map((section) => [String(section.id), sectionOptionText(section)] as const)}
            empty="— выберите —"
            onChange={setSectionId}
          />
        )}
        <button type="submit" className="button" disabled={busy || count === 0}>
          Применить
        </button>
      </div>
      {pending && (
        <Confirm
          className="products__confirm"
          question={`${oneCNote(pending.action, pending.oneC)}${question(pending.action, pending.changes, pending.ids.length)}`}
          confirmLabel={pending.action.kind === 'delete' ? 'Да, удалить' : 'Да, выполнить'}
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setPending(undefined)}
        />
      )}
      <p role="status" className="products__status">
        {status}
      </p>
      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}

/** What the owner is asked before an action runs: what it does and to how many products. */
function question(action: ProductActionInput, changes: number, chosen: number): string {
  const of = changes === chosen ? `${changes}` : `${changes} из ${chosen}`
  if (action.kind === 'delete') return `Удалить товары (${of})? Их страницы будут отвечать «страница удалена».`
  if (changes === 0) return `Действие не изменит ни одного из выбранных товаров (${chosen}). Всё равно выполнить?`
  if (action.kind === 'price') return `Цена изменится у товаров: ${of}. Изменить?`
  return `«${KINDS.find(([kind]) => kind === action.kind)?.[1]}» — товаров: ${of}. Выполнить?`
}

/** What 1C will set back, said first: «Товаров из 1С: 3 — их цену перезапишет 1С при следующем обмене. » */
function oneCNote(action: ProductActionInput, oneC: number): string {
  if (oneC === 0) return ''
  const field = action.kind === 'price' ? 'цену' : 'наличие'
  return `Товаров из 1С: ${oneC} — их ${field} перезапишет 1С при следующем обмене. `
}
