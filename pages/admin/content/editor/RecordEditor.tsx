import '../content.css'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { navigate } from 'vike/client/router'
import { usePageContext } from 'vike-react/usePageContext'
import { ApiError } from '../../../../src/api/http-client'
import { useAdminApi } from '../../layout/admin-context'
import { RecordActions } from './RecordActions'
import { RecordForm } from './RecordForm'
import {
  draftFromRecord,
  emptyDraft,
  recordQuery,
  TYPE_LABELS,
  writeValues,
  type RecordDraft,
  type TypeId,
  withProductOf,
} from './record-draft'
import { ADMIN_PATHS } from '../../../../src/site/paths'
import { overwriteWarning } from '../../../../src/catalogue/one-c-fields'
import { Confirm } from '../../layout/Confirm'
import { changedOneCFields, OneCMark, useProductMark } from './OneCMark'
import { VariantsPart } from './VariantsPart'

/**
 * /admin/content/:id edits a record, /admin/content/new?parentId=…&typeId=… creates one. A save is
 * one write of the record with its part and lists through the model API: all of it or nothing,
 * with the API's Russian message next to each field it names. A product from 1C is marked so, and
 * a save that changes a field the exchange overwrites asks first (decision 044). A product with
 * variants shows its price and availability as theirs, read-only, and its save leaves them out; its
 * «Варианты» part adds, edits, moves and removes them, each change written at once.
 */
export function RecordEditor({ id: recordId }: { id: string }) {
  const api = useAdminApi()
  const { urlParsed } = usePageContext()
  const isNew = recordId === 'new'
  const [draft, setDraftState] = useState<RecordDraft | null>(null)
  /** The draft as last loaded or saved: what a save compares against for 1C's fields */
  const [stored, setStored] = useState<RecordDraft | null>(null)
  const [asking, setAsking] = useState<string | null>(null)
  const [markVersion, setMarkVersion] = useState(0)
  const mark = useProductMark(stored, markVersion)
  const oneC = mark?.oneC ?? null
  /** Its variants set its price and availability: shown, not sent (decision 043) */
  const followsVariants = (mark?.variants ?? 0) > 0
  const [loadError, setLoadError] = useState<string | null>(null)
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({})
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null)
  const [busy, setBusy] = useState(false)
  const messageRef = useRef<HTMLParagraphElement>(null)

  useEffect(() => {
    const controller = new AbortController()
    async function load(): Promise<RecordDraft> {
      if (!isNew) {
        const id = Number(recordId)
        return draftFromRecord(await api.models.get('structure', recordQuery(id), { signal: controller.signal }))
      }
      const parentId = Number(urlParsed.search.parentId) || null
      const typeId = (urlParsed.search.typeId ?? (parentId ? 'page' : 'index')) as TypeId
      const parent = parentId
        ? await api.models.get<{ urlFull: string }>(
            'structure',
            { where: { id: parentId }, select: { urlFull: true } },
            { signal: controller.signal },
          )
        : null
      return emptyDraft(TYPE_LABELS[typeId] ? typeId : 'page', parentId, parent?.urlFull ?? '/')
    }
    load().then(setDraft, (failure: unknown) => {
      if (!controller.signal.aborted) setLoadError(failure instanceof Error ? failure.message : 'Не удалось загрузить')
    })
    return () => controller.abort()
  }, [api, isNew, recordId, urlParsed.search.parentId, urlParsed.search.typeId])

  useEffect(() => {
    if (message?.error) messageRef.current?.focus()
  }, [message])

  function setDraft(next: RecordDraft) {
    setDraftState(next)
    setStored(next)
  }

  if (loadError)
    return (
      <p className="admin-error" role="alert">
        {loadError}
      </p>
    )
  if (!draft) return <p role="status">Загружаем запись…</p>

  const change = (patch: Partial<RecordDraft>) =>
    setDraftState((current) => (current ? { ...current, ...patch } : current))

  /** After a variant's change: the product's price, old price and availability as its variants made them. */
  async function followVariants(id: number) {
    setMarkVersion((version) => version + 1)
    const follow = withProductOf(draftFromRecord(await api.models.get('structure', recordQuery(id))))
    setDraftState(follow)
    setStored(follow)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    const warning = draft && stored ? overwriteWarning(changedOneCFields(stored, draft), oneC) : null
    if (warning) setAsking(warning)
    else void save()
  }

  async function save() {
    setAsking(null)
    if (!draft) return
    setBusy(true)
    setMessage(null)
    setErrors({})
    try {
      const values = writeValues(draft, followsVariants)
      const saved =
        draft.id === null ? await api.models.post('structure', values) : await api.models.patch('structure', values)
      if (draft.id === null) {
        await navigate(ADMIN_PATHS.record(String(saved.id)))
        return
      }
      setDraft(draftFromRecord(saved))
      setMessage({ text: 'Сохранено. Изменения уже на сайте.', error: false })
    } catch (failure) {
      if (failure instanceof ApiError) {
        setErrors(failure.errors)
        setMessage({ text: failure.message, error: true })
      } else {
        setMessage({ text: 'Не удалось сохранить', error: true })
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="record-editor" aria-labelledby="record-editor-title">
      <p>
        <a href={ADMIN_PATHS.content}>← Вся структура</a>
      </p>
      <h1 id="record-editor-title">{isNew ? 'Новая запись' : draft.title || 'Запись без заголовка'}</h1>
      {!isNew && (
        <p className="record-editor__meta">
          {TYPE_LABELS[draft.typeId]} · <a href={draft.urlFull}>{draft.urlFull}</a>
          {draft.status === 410 && <span className="admin-badge admin-badge--danger">Снята с публикации (410)</span>}
          {!draft.published && <span className="admin-badge admin-badge--warn">Черновик</span>}
        </p>
      )}
      {oneC && <OneCMark overwritten={oneC} />}
      <form noValidate onSubmit={submit}>
        <RecordForm draft={draft} change={change} errors={errors} followsVariants={followsVariants} />
        {message?.error && (
          <p ref={messageRef} tabIndex={-1} className="admin-error record-editor__message" role="alert">
            {message.text}
          </p>
        )}
        <p className="record-editor__message" role="status">
          {message && !message.error ? message.text : ''}
        </p>
        <div className="record-editor__save">
          <button type="submit" className="button button--accent" disabled={busy || asking !== null}>
            {busy ? 'Сохраняем…' : isNew ? 'Создать' : 'Сохранить'}
          </button>
          {asking && (
            <Confirm
              className="record-editor__confirm"
              question={asking}
              confirmLabel="Сохранить"
              busy={busy}
              onConfirm={() => void save()}
              onCancel={() => setAsking(null)}
            />
          )}
        </div>
      </form>
      {draft.typeId === 'product' && draft.id !== null && (
        <VariantsPart productId={draft.id} onChanged={() => void followVariants(draft.id!).catch(() => {})} />
      )}
      {!isNew && (
        <RecordActions
          draft={draft}
          onChanged={(saved, text) => {
            setDraft(draftFromRecord(saved))
            setMessage({ text, error: false })
          }}
        />
      )}
    </section>
  )
}
