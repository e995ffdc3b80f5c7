import type { FieldDefinition } from '../../../../src/components/form/field-definition'
import { TextInput } from '../../../../src/components/form/TextInput'
import { FieldShell } from '../../../../src/components/form/FieldShell'
import { ImageField } from './ImageField'
import { ListEditor } from './ListEditor'
import type { PartProps } from './PartFields'
import { FOLLOWS_VARIANTS } from '../../../../src/catalogue/variant-fields'
import { ADMIN_PATHS } from '../../../../src/site/paths'
import { TextFields } from './TextFields'
import { AvailabilityField } from './AvailabilityField'
import { AVAILABILITY_OPTIONS, newKey, type GalleryDraft, type PropertyDraft, type RecordDraft } from './record-draft'

const OWN_FIELDS: readonly FieldDefinition[] = [
  { id: 'article', type: 'text', label: 'Артикул' },
  { id: 'vendor', type: 'text', label: 'Бренд' },
]

const PRICE_FIELDS: readonly FieldDefinition[] = [
  {
    id: 'price',
    type: 'text',
    label: 'Цена, ₽',
    hint: 'В рублях, можно с копейками: 1 299,90; пусто — «Цена по запросу»',
    inputMode: 'decimal',
  },
  {
    id: 'oldPrice',
    type: 'text',
    label: 'Цена до скидки, ₽',
    hint: 'Больше цены: показывается зачёркнутой со скидкой в процентах; пусто — без скидки',
    inputMode: 'decimal',
  },
]

const DESCRIPTION: readonly FieldDefinition[] = [
  { id: 'description', type: 'textarea', label: 'Описание товара', rows: 5 },
]

type ProductFieldsProps = PartProps & { followsVariants?: boolean }

/**
 * A product's own field its variants set (decision 043): its value as theirs make it, read-only,
 * with the reason as its hint.
 */
function FollowedField({ id, label, value, why }: { id: string; label: string; value: string; why: string }) {
  return (
    <FieldShell id={id} label={label} hint={why}>
      <input id={id} className="field__control" readOnly value={value} aria-describedby={`${id}-hint`} />
    </FieldShell>
  )
}

/** A product's price, old price and availability as its variants make them, and where they are edited. */
function FollowedFields({ draft }: { draft: RecordDraft }) {
  const product = draft.product
  const availability = AVAILABILITY_OPTIONS.find((o) => o.value === product.availability)?.label ?? ''
  return (
    <>
      <FollowedField
        id="product-price"
        label="Цена, ₽ (самая низкая у вариантов)"
        value={product.price}
        why={FOLLOWS_VARIANTS.price}
      />
      <FollowedField
        id="product-oldPrice"
        label="Цена до скидки, ₽"
        value={product.oldPrice}
        why={FOLLOWS_VARIANTS.price}
      />
      <FollowedField
        id="product-availability"
        label="Наличие"
        value={availability}
        why={FOLLOWS_VARIANTS.availability}
      />
      <p>
        Варианты товара — <a href="#record-variants-title">ниже, в «Вариантах»</a>, и{' '}
        <a href={`${ADMIN_PATHS.products}?q=${encodeURIComponent(draft.title)}`}>в «Товарах»</a>
      </p>
    </>
  )
}

/**
 * A product's part: prices, brand, availability, the gallery and the characteristics. The price,
 * old price and availability of a product with variants (`followsVariants`) are theirs: shown
 * read-only with the reason, edited in «Товары»' variant rows.
 */
export function ProductFields({ draft, change, errors, followsVariants = false }: ProductFieldsProps) {
  const product = draft.product
  const set = (patch: Partial<RecordDraft['product']>) => change({ product: { ...product, ...patch } })
  const fields = (list: readonly FieldDefinition[]) => (
    <TextFields
      fields={list}
      values={product}
      onChange={set}
      errors={errors}
      errorPath="product."
      idPrefix="product-"
    />
  )
  return (
    <>
      <fieldset className="record-form__group fields">
        <legend>Товар</legend>
        {fields(OWN_FIELDS)}
        {followsVariants ? <FollowedFields draft={draft} /> : fields(PRICE_FIELDS)}
        {fields(DESCRIPTION)}
        {!followsVariants && (
          <AvailabilityField
            id="product-availability"
            value={product.availability}
            error={errors['product.availability']}
            onChange={(availability) => set({ availability })}
          />
        )}
        <div className="field field--checkbox">
          <input
            id="product-featured"
            type="checkbox"
            checked={product.featured}
            onChange={(event) => set({ featured: event.target.checked })}
          />
          <label htmlFor="product-featured">Показывать на главной (избранный товар)</label>
        </div>
      </fieldset>
      <ListEditor<GalleryDraft>
        title="Фотографии (первая — главная)"
        itemLabel="Фото"
        addLabel="Добавить фото"
        items={draft.images}
        onChange={(images) => change({ images })}
        create={() => ({ key: newKey(), image: null, alt: '' })}
        renderItem={(item, update, i) => (
          <>
            <ImageField
              id={`gallery-${item.key}-image`}
              label={`Фото ${i + 1}`}
              optional={false}
              value={item.image}
              onChange={(image) => update({ ...item, image })}
              error={errors[`images.${i}.image`]}
            />
            <TextInput
              id={`gallery-${item.key}-alt`}
              label={`Подпись к фото ${i + 1} (alt)`}
              value={item.alt}
              onChange={(v) => update({ ...item, alt: v ?? '' })}
              error={errors[`images.${i}.alt`]}
            />
          </>
        )}
      />
      <div className="field">
        <label className="field__label" htmlFor="gallery-upload">
          Загрузить несколько фото сразу
        </label>
        <input
          id="gallery-upload"
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp,image/avif"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            if (files.length === 0) return
            change({ images: [...draft.images, ...files.map((image) => ({ key: newKey(), image, alt: '' }))] })
            event.target.value = ''
          }}
        />
      </div>
      <ListEditor<PropertyDraft>
        title="Характеристики"
        itemLabel="Характеристика"
        addLabel="Добавить характеристику"
        items={draft.properties}
        onChange={(properties) => change({ properties })}
        create={() => ({ key: newKey(), group: '', name: '', value: '', unit: '' })}
        renderItem={(item, update, i) => (
          <>
            <TextInput
              id={`property-${item.key}-name`}
              label="Название"
              value={item.name}
              onChange={(v) => update({ ...item, name: v ?? '' })}
              error={errors[`properties.${i}.name`]}
            />
            <TextInput
              id={`property-${item.key}-value`}
              label="Значение"
              value={item.value}
              onChange={(v) => update({ ...item, value: v ?? '' })}
              error={errors[`properties.${i}.value`]}
            />
            <TextInput
              id={`property-${item.key}-unit`}
              label="Единица измерения"
              value={item.unit}
              onChange={(v) => update({ ...item, unit: v ?? '' })}
              error={errors[`properties.${i}.unit`]}
            />
            <TextInput
              id={`property-${item.key}-group`}
              label="Группа (необязательно)"
              value={item.group}
              onChange={(v) => update({ ...item, group: v ?? '' })}
              error={errors[`properties.${i}.groupName`]}
            />
          </>
        )}
      />
    </>
  )
}
