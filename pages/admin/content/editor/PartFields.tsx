import type { FieldDefinition } from '../../../../src/components/form/field-definition'
import { TextArea } from '../../../../src/components/form/TextArea'
import { TextInput } from '../../../../src/components/form/TextInput'
import { ImageField } from './ImageField'
import { ListEditor } from './ListEditor'
import { TextFields } from './TextFields'
import { newKey, type AdvantageDraft, type RecordDraft, type SlideDraft } from './record-draft'

const INDEX_FIELDS: readonly FieldDefinition[] = [
  { id: 'tel', type: 'text', label: 'Телефон', inputMode: 'tel' },
  { id: 'telText', type: 'text', label: 'Подпись к телефону' },
  { id: 'description', type: 'textarea', label: 'Описание' },
  { id: 'copyright', type: 'text', label: 'Копирайт' },
]

export interface PartProps {
  draft: RecordDraft
  change: (patch: Partial<RecordDraft>) => void
  errors: Readonly<Record<string, string>>
}

/** The index record's part: the header and footer of its pages, and the home page's lists. */
export function IndexFields({ draft, change, errors }: PartProps) {
  const index = draft.index
  const set = (patch: Partial<RecordDraft['index']>) => change({ index: { ...index, ...patch } })
  return (
    <>
      <fieldset className="record-form__group fields">
        <legend>Шапка и подвал</legend>
        <ImageField
          id="index-logo"
          label="Логотип"
          value={index.logo}
          onChange={(logo) => set({ logo })}
          error={errors['index.logo']}
        />
        <TextFields
          fields={INDEX_FIELDS}
          values={index}
          onChange={set}
          errors={errors}
          errorPath="index."
          idPrefix="index-"
        />
      </fieldset>
      <ListEditor<SlideDraft>
        title="Слайдер"
        itemLabel="Слайд"
        addLabel="Добавить слайд"
        items={draft.sliderItems}
        onChange={(sliderItems) => change({ sliderItems })}
        create={() => ({ key: newKey(), image: null, title: '' })}
        renderItem={(item, update, i) => (
          <>
            <ImageField
              id={`slide-${item.key}-image`}
              label="Изображение слайда"
              optional={false}
              value={item.image}
              onChange={(image) => update({ ...item, image })}
              error={errors[`sliderItems.${i}.image`]}
            />
            <TextInput
              id={`slide-${item.key}-title`}
              label="Заголовок слайда"
              value={item.title}
              onChange={(v) => update({ ...item, title: v ?? '' })}
              error={errors[`sliderItems.${i}.title`]}
            />
          </>
        )}
      />
      <ListEditor<AdvantageDraft>
        title="Преимущества"
        itemLabel="Преимущество"
        addLabel="Добавить преимущество"
        items={draft.advantages}
        onChange={(advantages) => change({ advantages })}
        create={() => ({ key: newKey(), image: null, title: '', description: '' })}
        renderItem={(item, update, i) => (
          <>
            <TextInput
              id={`advantage-${item.key}-title`}
              label="Заголовок преимущества"
              value={item.title}
              onChange={(v) => update({ ...item, title: v ?? '' })}
              error={errors[`advantages.${i}.title`]}
            />
            <TextArea
              id={`advantage-${item.key}-description`}
              label="Текст преимущества"
              value={item.description}
              onChange={(v) => update({ ...item, description: v ?? '' })}
              error={errors[`advantages.${i}.description`]}
            />
            <ImageField
              id={`advantage-${item.key}-image`}
              label="Значок преимущества"
              value={item.image}
              onChange={(image) => update({ ...item, image })}
              error={errors[`advantages.${i}.image`]}
            />
          </>
        )}
      />
    </>
  )
}
