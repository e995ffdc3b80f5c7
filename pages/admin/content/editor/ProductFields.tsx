import { TextArea } from '../../../../src/components/form/TextArea'
import { TextInput } from '../../../../src/components/form/TextInput'
import { FieldShell } from '../../../../src/components/form/FieldShell'
import { ImageField } from './ImageField'
import { ListEditor } from './ListEditor'
import type { PartProps } from './PartFields'
import {
  AVAILABILITY_OPTIONS,
  newKey,
  type Availability,
  type GalleryDraft,
  type PropertyDraft,
  type RecordDraft,
} from './record-draft'

/** A product's part: prices, brand, availability, the gallery and the characteristics. */
export function ProductFields({ draft, change, errors }: PartProps) {
  const product = draft.product
  const set = (patch: Partial<RecordDraft['product']>) => change({ product: { ...product, ...patch } })
  return (
    <>
      <fieldset className="record-form__group fields">
        <legend>Товар</legend>
        <TextInput
          id="product-article"
          label="Артикул"
          value={product.article}
          onChange={(v) => set({ article: v ?? '' })}
          error={errors['product.article']}
        />
        <TextInput
          id="product-vendor"
          label="Бренд"
          value={product.vendor}
          onChange={(v) => set({ vendor: v ?? '' })}
          error={errors['product.vendor']}
        />
        <TextInput
          id="product-price"
          label="Цена, ₽"
          hint="Целое число рублей; пусто — «Цена по запросу»"
          inputMode="numeric"
          value={product.price}
          onChange={(v) => set({ price: v ?? '' })}
          error={errors['product.price']}
        />
        <TextInput
          id="product-oldPrice"
          label="Старая цена, ₽"
          hint="Больше цены: показывается зачёркнутой со скидкой в процентах; пусто — без скидки"
          inputMode="numeric"
          value={product.oldPrice}
          onChange={(v) => set({ oldPrice: v ?? '' })}
          error={errors['product.oldPrice']}
        />
        <FieldShell id="product-availability" label="Наличие" error={errors['product.availability']}>
          <select
            id="product-availability"
            className="field__control"
            value={product.availability}
            onChange={(event) => set({ availability: event.target.value as Availability })}
          >
            {AVAILABILITY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </FieldShell>
        <div className="field field--checkbox">
          <input
            id="product-featured"
            type="checkbox"
            checked={product.featured}
            onChange={(event) => set({ featured: event.target.checked })}
          />
          <label htmlFor="product-featured">Показывать на главной (избранный товар)</label>
        </div>
        <TextArea
          id="product-description"
          label="Описание товара"
          rows={5}
          value={product.description}
          onChange={(v) => set({ description: v ?? '' })}
          error={errors['product.description']}
        />
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
              label="Изображение"
              optional={false}
              value={item.image}
              onChange={(image) => update({ ...item, image })}
              error={errors[`images.${i}.image`]}
            />
            <TextInput
              id={`gallery-${item.key}-alt`}
              label="Описание для незрячих (alt)"
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
