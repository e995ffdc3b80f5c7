// The actions of «Товары» on the chosen products or on «все N по фильтру»: publish, hide, withdraw,
// move to a section, set availability, change the price by a percentage or an amount (optionally
// keeping the price before as the old price), delete (after the in-page Confirm). The products go to
// the server in batches, each one short write; the status line counts them as they go.
import { useId, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import {
  ACTION_BATCH,
  AVAILABILITY_LABELS,
  type ProductActionInput,
  type ProductAvailability,
  type ProductsApi,
  type SectionOption,
} from '../../../src/admin/admin-products'
import { Confirm } from '../layout/Confirm'
import { LabelledSelect } from './LabelledSelect'

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
  const [by, setBy] = useState<'percent' | 'amount'>('percent')
  const [value, setValue] = useState('')
  const [keepOldPrice, setKeepOldPrice] = useState(false)
  const [availability, setAvailability] = useState<ProductAvailability>('in_stock')
  const [sectionId, setSectionId] = useState('')
  const [status, setStatus] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState(false)

  function action(): ProductActionInput | string {
    switch (kind) {
      case 'price': {
        const number = Number(value.replace(',', '.'))
        if (value.trim() === '' || !Number.isFinite(number)) return 'Введите процент или сумму'
        return by === 'percent'
          ? { kind, percent: number, keepOldPrice }
          : { kind, amount: Math.round(number), keepOldPrice }
      }
      case 'availability':
        return { kind, availability }
      case 'move':
        return sectionId ? { kind, sectionId: Number(sectionId) } : 'Выберите раздел'
      default:
        return { kind }
    }
  }

  async function run() {
    const chosen = action()
    if (typeof chosen === 'string') {
      setError(chosen)
      return
    }
    setBusy(true)
    setError(null)
    setConfirming(false)
    try {
      const ids = await targets()
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
    if (kind === 'delete') setConfirming(true)
    else void run()
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
        {kind === 'price' && (
          <>
            <label className="products__field">
              <span>Как</span>
              <select
                aria-label="Как"
                className="field__control"
                value={by}
                onChange={(e) => setBy(e.target.value as 'percent' | 'amount')}
              >
                <option value="percent">на процент</option>
                <option value="amount">на сумму, ₽</option>
              </select>
            </label>
            <label className="products__field">
              <span>{by === 'percent' ? 'Процент (−10 — скидка)' : 'Сумма, ₽ (−500 — дешевле)'}</span>
              <input
                className="field__control"
                inputMode="decimal"
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </label>
            <label className="products__check">
              <input type="checkbox" checked={keepOldPrice} onChange={(e) => setKeepOldPrice(e.target.checked)} />
              <span>Прежнюю цену показать как старую</span>
            </label>
          </>
        )}
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
            options={sections.map((section) => [String(section.id), `${section.title} (${section.urlFull})`] as const)}
            empty="— выберите —"
            onChange={setSectionId}
          />
        )}
        <button type="submit" className="button" disabled={busy || count === 0}>
          Применить
        </button>
      </div>
      {confirming && (
        <Confirm
          className="products__confirm"
          question={`Удалить товары (${count})? Их страницы будут отвечать «страница удалена».`}
          confirmLabel="Удалить"
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setConfirming(false)}
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
