// «Изменить цену»'s fields in «Товары»'s actions (ProductActions.tsx): by a percentage (rounded as
// chosen) or by an amount in rubles, and whether the price before is kept as the old price.
import { PRICE_ROUNDING_LABELS, type PriceRounding, type ProductActionInput } from '../../../src/admin/admin-products'
import { parseMoney, rublesNumber } from '../../../src/format/money'
import { LabelledSelect } from './LabelledSelect'

export interface PriceDraft {
  readonly by: 'percent' | 'amount'
  /** As typed: «10», «−5,5», «500» */
  readonly value: string
  readonly rounding: PriceRounding
  readonly keepOldPrice: boolean
}

export const NEW_PRICE_DRAFT: PriceDraft = { by: 'percent', value: '', rounding: 'ruble', keepOldPrice: false }

/** The action the draft asks for, or the Russian reason it cannot be read. */
export function priceActionOf(draft: PriceDraft): ProductActionInput | string {
  const { by, rounding, keepOldPrice } = draft
  const text = draft.value.trim().replace(/^[−–]/, '-')
  if (by === 'percent') {
    const percent = Number(text.replace(',', '.'))
    if (text === '' || !Number.isFinite(percent)) return 'Введите процент, например 10 или −5,5'
    return { kind: 'price', percent, rounding, keepOldPrice }
  }
  const negative = text.startsWith('-')
  const read = parseMoney(negative ? text.slice(1) : text)
  if (text === '' || !read.ok) return `Введите сумму в рублях${read.ok ? '' : ` (${read.reason})`}`
  return { kind: 'price', amount: (negative ? -1 : 1) * rublesNumber(read.kopecks), keepOldPrice }
}

export function PriceActionFields({ draft, onChange }: { draft: PriceDraft; onChange: (next: PriceDraft) => void }) {
  const { by, value, rounding, keepOldPrice } = draft
  return (
    <>
      <label className="products__field">
        <span>Как</span>
        <select
          aria-label="Как"
          className="field__control"
          value={by}
          onChange={(e) => onChange({ ...draft, by: e.target.value as PriceDraft['by'] })}
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
          onChange={(e) => onChange({ ...draft, value: e.target.value })}
        />
      </label>
      {by === 'percent' && (
        <LabelledSelect
          label="Округлить"
          value={rounding}
          options={PRICE_ROUNDING_LABELS}
          onChange={(next) => onChange({ ...draft, rounding: next as PriceRounding })}
        />
      )}
      <label className="products__check">
        <input
          type="checkbox"
          checked={keepOldPrice}
          onChange={(e) => onChange({ ...draft, keepOldPrice: e.target.checked })}
        />
        <span>Прежнюю цену показать как старую</span>
      </label>
    </>
  )
}
