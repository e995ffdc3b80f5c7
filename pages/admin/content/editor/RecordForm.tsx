import { useId } from 'react'
import { TextArea } from '../../../../src/components/form/TextArea'
import { TextInput } from '../../../../src/components/form/TextInput'
import { IndexFields } from './PartFields'
import { ProductFields } from './ProductFields'
import { TYPE_LABELS, type RecordDraft, type TypeId } from './record-draft'

interface RecordFormProps {
  draft: RecordDraft
  change: (patch: Partial<RecordDraft>) => void
  errors: Readonly<Record<string, string>>
}

/** The fields of one structure record: the common ones, then its type's part. */
export function RecordForm({ draft, change, errors }: RecordFormProps) {
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
      <TextInput
        id="record-title"
        label="Заголовок"
        required
        value={draft.title}
        onChange={(v) => change({ title: v ?? '' })}
        error={errors.title}
      />
      <TextInput
        id="record-urlFull"
        label="Адрес страницы (URL)"
        hint="Начинается с «/», например /structure/drills/"
        required
        value={draft.urlFull}
        onChange={(v) => change({ urlFull: v ?? '' })}
        error={errors.urlFull}
      />
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
      {draft.typeId === 'product' && <ProductFields draft={draft} change={change} errors={errors} />}
      <TextArea
        id="record-content"
        label="Текст страницы"
        hint="Абзацы разделяйте пустой строкой"
        rows={6}
        value={draft.content}
        onChange={(v) => change({ content: v ?? '' })}
        error={errors.content}
      />
      <fieldset className="record-form__group fields">
        <legend>Для поисковиков</legend>
        <TextInput
          id="record-metaTitle"
          label="Meta title"
          hint="Пусто — берётся заголовок"
          value={draft.metaTitle}
          onChange={(v) => change({ metaTitle: v ?? '' })}
          error={errors.metaTitle}
        />
        <TextArea
          id="record-metaDescription"
          label="Meta description"
          value={draft.metaDescription}
          onChange={(v) => change({ metaDescription: v ?? '' })}
          error={errors.metaDescription}
        />
        <TextInput
          id="record-metaRobots"
          label="Meta robots"
          hint="Например noindex, nofollow; пусто — страницу индексируют"
          value={draft.metaRobots}
          onChange={(v) => change({ metaRobots: v ?? '' })}
          error={errors.metaRobots}
        />
      </fieldset>
    </div>
  )
}
