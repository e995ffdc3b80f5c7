// The fields of a variant's form (VariantForm.tsx): a labelled text input that may be read-only (1C's
// fields, decision 044) and the variant's option values: one field per characteristic its product's
// variants have, labelled by it, or a characteristic named here with its value.
import { FieldShell } from '../../../../src/components/form/FieldShell'
import { ONE_C_VARIANT } from '../../../../src/catalogue/variant-fields'
import { AvailabilityField } from './AvailabilityField'
import type { OptionDraft, VariantDraft } from './variant-draft'

export function VariantText(props: {
  id: string
  label: string
  value: string
  error?: string
  hint?: string
  readOnly?: boolean
  inputMode?: 'decimal'
  onChange: (value: string) => void
}) {
  return (
    <FieldShell id={props.id} label={props.label} error={props.error} hint={props.hint}>
      <input
        id={props.id}
        className="field__control"
        value={props.value}
        readOnly={props.readOnly}
        inputMode={props.inputMode}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : props.hint ? `${props.id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </FieldShell>
  )
}

export function VariantOptions({
  idOf,
  options,
  owned,
  errors,
  onChange,
}: {
  idOf: (field: string) => string
  options: readonly OptionDraft[]
  owned: boolean
  errors: Readonly<Record<string, string>>
  onChange: (index: number, patch: Partial<OptionDraft>) => void
}) {
  const Text = VariantText
  return (
    <>
      {options.map((option, i) =>
        option.named ? (
          <Text
            key={i}
            id={idOf(`option-${i}`)}
            label={option.unit ? `${option.name}, ${option.unit}` : option.name}
            hint={owned ? ONE_C_VARIANT.options : undefined}
            value={option.value}
            readOnly={owned}
            error={errors[`options.${i}.value`] ?? errors.options}
            onChange={(value) => onChange(i, { value })}
          />
        ) : (
          <div key={i} className="record-variants__option">
            <Text
              id={idOf(`option-${i}-name`)}
              label="Характеристика варианта"
              hint="По ней покупатель выбирает вариант: «Размер», «Цвет»"
              value={option.name}
              error={errors[`options.${i}.name`]}
              onChange={(name) => onChange(i, { name })}
            />
            <Text
              id={idOf(`option-${i}-value`)}
              label="Значение характеристики"
              value={option.value}
              error={errors[`options.${i}.value`]}
              onChange={(value) => onChange(i, { value })}
            />
          </div>
        ),
      )}
    </>
  )
}

/** A variant's price and old price in rubles with kopecks, and its availability. */
export function VariantPrices({
  idOf: id,
  draft,
  errors,
  set,
}: {
  idOf: (field: string) => string
  draft: VariantDraft
  errors: Readonly<Record<string, string>>
  set: (patch: Partial<VariantDraft>) => void
}) {
  const Text = VariantText
  return (
    <>
      <Text
        id={id('price')}
        label="Цена, ₽"
        hint="В рублях, можно с копейками: 1 299,90; пусто — «Цена по запросу»"
        inputMode="decimal"
        value={draft.price}
        error={errors.price}
        onChange={(price) => set({ price })}
      />
      <Text
        id={id('oldPrice')}
        label="Цена до скидки, ₽"
        hint="Больше цены; пусто — без скидки"
        inputMode="decimal"
        value={draft.oldPrice}
        error={errors.oldPrice}
        onChange={(oldPrice) => set({ oldPrice })}
      />
      <AvailabilityField
        id={id('availability')}
        value={draft.availability}
        error={errors.availability}
        onChange={(availability) => set({ availability })}
      />
    </>
  )
}
