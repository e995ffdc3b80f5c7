// One variant in the editor's «Варианты» (docs/decisions/043-variants.md), or a new one: its title,
// артикул, price and old price in rubles with kopecks, availability, option values and picture (a
// file chosen is uploaded with the save), saved on its own through the variants API, the API's
// Russian message under each field it names. A variant 1C sent of a product from 1C shows its title,
// артикул and options read-only (1C's, decision 044), and its picture while 1C overwrites pictures,
// and asks before a save of a price or stock 1C will overwrite; a removal asks first.
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../../../src/api/http-client'
import type { EditorVariant, VariantList, VariantsApi } from '../../../../src/admin/admin-variants'
import { overwriteWarning } from '../../../../src/catalogue/one-c-fields'
import { ONE_C_VARIANT } from '../../../../src/catalogue/variant-fields'
import { VariantOptions, VariantPrices, VariantText as Text } from './VariantFields'
import { Confirm } from '../../layout/Confirm'
import { ImageField } from './ImageField'
import { changedOneCFields, NEW_OPTION, variantDraft, variantWrite, type VariantDraft } from './variant-draft'

type VariantFormProps = {
  productId: number
  /** null: the form of a new variant */
  variant: EditorVariant | null
  names: VariantList['options']
  api: VariantsApi
  /** After a save or a removal: the part says so and reads the variants again */
  onDone: (text: string) => Promise<void>
  onCancel?: () => void
  /** Moves it up (-1) or down (1) in the list; absent where it cannot go */
  onMove?: { up?: () => void; down?: () => void }
  moving?: boolean
}

export function VariantForm({ productId, variant, names, api, onDone, onCancel, onMove, moving }: VariantFormProps) {
  const [initial] = useState(() => variantDraft(variant, names))
  const [draft, setDraft] = useState<VariantDraft>(initial)
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [asking, setAsking] = useState<'save' | 'remove' | null>(null)
  const isNew = variant === null
  /** 1C's variant: its title, артикул and options are 1C's */
  const owned = variant?.oneC != null
  /** …and its picture, while the owner lets 1C overwrite pictures */
  const pictureOwned = variant?.oneC?.includes('images') ?? false
  const key = variant ? String(variant.id) : 'new'
  const id = (field: string) => `variant-${key}-${field}`
  const heading = variant ? `Вариант «${variant.title}»` : 'Новый вариант'
  const set = (patch: Partial<VariantDraft>) => setDraft((current) => ({ ...current, ...patch }))

  async function run(work: () => Promise<unknown>, done: string) {
    setBusy(true)
    setErrors({})
    setFailure(null)
    try {
      await work()
      await onDone(done)
    } catch (error) {
      setErrors(error instanceof ApiError ? error.errors : {})
      setFailure(error instanceof Error ? error.message : 'Не удалось сохранить')
    } finally {
      setBusy(false)
      setAsking(null)
    }
  }

  function save() {
    const values = variantWrite(draft)
    // 1C's fields are not sent: only what the owner may change.
    const { price, oldPrice, availability, image } = values
    const sent = owned ? { price, oldPrice, availability, ...(pictureOwned ? {} : { image }) } : values
    const title = values.title ?? ''
    return isNew
      ? run(() => api.add(productId, sent), `Вариант «${title}» добавлен. Он уже на сайте.`)
      : run(() => api.edit(productId, variant.id, sent), `Вариант «${title}» сохранён. Изменения уже на сайте.`)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    const warning = variant ? overwriteWarning(changedOneCFields(initial, draft), variant.oneC, 'этого варианта') : null
    if (warning) setAsking('save')
    else void save()
  }

  const removeQuestion = `Удалить вариант «${variant?.title}»? Он исчезнет со страницы товара, из поиска и выгрузок.${
    owned ? ' 1С добавит его снова, если пришлёт при следующем обмене.' : ''
  }`
  return (
    <form className="record-variants__form" noValidate onSubmit={submit} aria-labelledby={id('heading')}>
      <h3 id={id('heading')} className="record-variants__heading">
        {heading}
        {owned && <span className="admin-badge record-editor__one-c-badge">Из 1С</span>}
      </h3>
      <div className="record-variants__fields">
        <Text
          id={id('title')}
          label="Название варианта"
          hint={owned ? ONE_C_VARIANT.title : 'Что выбирает покупатель: «Синий, 160×230»'}
          value={draft.title}
          readOnly={owned}
          error={errors.title}
          onChange={(title) => set({ title })}
        />
        <Text
          id={id('article')}
          label="Артикул"
          hint={owned ? ONE_C_VARIANT.article : undefined}
          value={draft.article}
          readOnly={owned}
          error={errors.article}
          onChange={(article) => set({ article })}
        />
        <VariantPrices idOf={id} draft={draft} errors={errors} set={set} />
        <VariantOptions
          idOf={id}
          options={draft.options}
          owned={owned}
          errors={errors}
          onChange={(i, patch) => set({ options: draft.options.map((o, j) => (j === i ? { ...o, ...patch } : o)) })}
        />
        <ImageField
          id={id('image')}
          label="Картинка варианта"
          value={draft.image}
          readOnly={pictureOwned ? ONE_C_VARIANT.image : undefined}
          error={errors.image}
          onChange={(image) => set({ image })}
        />
      </div>
      {failure && (
        <p className="admin-error" role="alert">
          {failure}
        </p>
      )}
      <div className="admin-toolbar">
        <button type="submit" className="button button--accent" disabled={busy || asking !== null}>
          {busy ? 'Сохраняем…' : isNew ? 'Добавить вариант' : 'Сохранить вариант'}
        </button>
        {!owned && (
          <button
            type="button"
            className="button button--quiet"
            onClick={() => set({ options: [...draft.options, { ...NEW_OPTION }] })}
          >
            Ещё характеристика
          </button>
        )}
        {onCancel && (
          <button type="button" className="button button--quiet" onClick={onCancel}>
            Отмена
          </button>
        )}
        {onMove?.up && (
          <button type="button" className="button button--quiet" disabled={moving} onClick={onMove.up}>
            Выше<span className="visually-hidden"> «{variant?.title}»</span>
          </button>
        )}
        {onMove?.down && (
          <button type="button" className="button button--quiet" disabled={moving} onClick={onMove.down}>
            Ниже<span className="visually-hidden"> «{variant?.title}»</span>
          </button>
        )}
        {variant && (
          <button type="button" className="button button--danger" disabled={busy} onClick={() => setAsking('remove')}>
            Удалить вариант
          </button>
        )}
      </div>
      {asking && (
        <Confirm
          className="record-variants__confirm"
          question={
            asking === 'remove'
              ? removeQuestion
              : (overwriteWarning(changedOneCFields(initial, draft), variant?.oneC ?? null, 'этого варианта') ?? '')
          }
          confirmLabel={asking === 'remove' ? 'Удалить' : 'Сохранить'}
          busy={busy}
          onConfirm={() =>
            void (asking === 'remove'
              ? run(() => api.remove(productId, variant!.id), `Вариант «${variant!.title}» удалён`)
              : save())
          }
          onCancel={() => setAsking(null)}
        />
      )}
    </form>
  )
}
