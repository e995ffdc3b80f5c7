import { useId } from 'react'
import type { FieldDefinition } from '../../../../src/components/form/field-definition'
import { IndexFields } from './PartFields'
import { ProductFields } from './ProductFields'
import { TextFields } from './TextFields'
import { TYPE_LABELS, type RecordDraft, type TypeId } from './record-draft'

interface RecordFormProps {
  draft: RecordDraft
  change: (patch: Partial<RecordDraft>) => void
  errors: Readonly<Record<string, string>>
  /** A product whose variants set its price and availability (decision 043) */
  followsVariants?: boolean
}

const HEAD_FIELDS: readonly FieldDefinition[] = [
  { id: 'title', type: 'text', label: 'Заголовок', required: true },
  {
    id: 'urlFull',
    type: 'text',
    label: 'Адрес страницы (URL)',
    hint: 'Начинается с «/», например /structure/drills/',
    required: true,
  },
]

const BODY_FIELDS: readonly FieldDefinition[] = [
  { id: 'content', type: 'textarea', label: 'Текст страницы', hint: 'Абзацы разделяйте пустой строкой', rows: 6 },
]

const META_FIELDS: readonly FieldDefinition[] = [
  { id: 'metaTitle', type: 'text', label: 'Meta title', hint: 'Пусто — берётся заголовок' },
  { id: 'metaDescription', type: 'textarea', label: 'Meta description' },
  {
    id: 'metaRobots',
    type: 'text',
    label: 'Meta robots',
    hint: 'Например noindex, nofollow; пусто — страницу индексируют',
  },
]

/** The fields of one structure record: the common ones, then its type's part. */
export function RecordForm({ draft, change, errors, followsVariants = false }: RecordFormProps) {
  const id = useId()
  const isNew = draft.id === null
  return (
    <div className="record-form fields">
      {isNew && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-type`}>
            Тип записи
          </label>
          <select
            id={`${id}-type`}
            className="admin-select"
            value={draft.typeId}
            onChange={(event) => change({ typeId: event.target.value as TypeId })}
          >
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
      <TextFields fields={HEAD_FIELDS} values={draft} onChange={change} errors={errors} idPrefix="record-" />
      <div className="field field--checkbox">
        <input
          id="record-published"
          type="checkbox"
          aria-describedby="record-published-hint"
          checked={draft.published}
          onChange={(event) => change({ published: event.target.checked })}
        />
        <label htmlFor="record-published">Опубликовано (видно на сайте)</label>
        <p className="field__hint field--checkbox__hint" id="record-published-hint">
          Без галочки запись — черновик: её адрес отвечает «страница не найдена» (404). Чтобы убрать с сайта
          опубликованную страницу, нажмите «Снять с публикации» ниже: адрес ответит 410.
        </p>
        {errors.published && <p className="field__error">{errors.published}</p>}
      </div>
      {draft.typeId === 'index' && <IndexFields draft={draft} change={change} errors={errors} />}
      {draft.typeId === 'product' && (
        <ProductFields draft={draft} change={change} errors={errors} followsVariants={followsVariants} />
      )}
      <TextFields fields={BODY_FIELDS} values={draft} onChange={change} errors={errors} idPrefix="record-" />
      <fieldset className="record-form__group fields">
        <legend>Для поисковиков</legend>
        <TextFields fields={META_FIELDS} values={draft} onChange={change} errors={errors} idPrefix="record-" />
      </fieldset>
    </div>
  )
}
