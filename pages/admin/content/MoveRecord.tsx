import { useEffect, useId, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { TreeRecord } from '../../../src/admin/admin-api'
import { isPrefixOf, urlUnder } from '../../../src/site/url'
import { useAdminApi } from '../layout/admin-context'
import { AdminError } from '../layout/AdminError'

interface Target {
  readonly id: number
  readonly title: string
  readonly urlFull: string
}

/** Sections and sites a record can be moved to: a bounded, stated number, read page by page. */
const MAX_TARGETS = 5_000

/**
 * «Перенести»: another section for the record, and whether its URL stays or takes the new
 * section's path (the old one then redirects, 301). `onMoved` gets the old and new parent ids.
 */
export function MoveRecord({
  record,
  onMoved,
  onCancel,
}: {
  record: TreeRecord
  onMoved: (from: number | null, to: number, urlFull: string) => void
  onCancel: () => void
}) {
  const api = useAdminApi()
  const id = useId()
  const [targets, setTargets] = useState<Target[] | null>(null)
  const [parentId, setParentId] = useState<number | null>(null)
  const [keepUrl, setKeepUrl] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const controller = new AbortController()
    api.models
      .manyAll<Target>(
        'structure',
        {
          select: { id: true, title: true, urlFull: true },
          where: { typeId: { in: ['index', 'section'] } },
          orderBy: [{ urlFull: 'asc' }, { id: 'asc' }],
          take: 500,
        },
        { signal: controller.signal, max: MAX_TARGETS },
      )
      .then(
        (rows) =>
          setTargets(rows.filter((row) => row.id !== record.parentId && !isPrefixOf(record.urlFull, row.urlFull))),
        (failure: unknown) => {
          if (!controller.signal.aborted) {
            setError(failure instanceof ApiError ? failure.message : 'Не удалось загрузить разделы')
          }
        },
      )
    return () => controller.abort()
  }, [api, record])

  const target = targets?.find((t) => t.id === parentId)
  const newUrl = target ? urlUnder(target.urlFull, record.urlFull) : null

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (parentId === null) {
      setError('Выберите раздел, в который перенести запись')
      return
    }
    setBusy(true)
    setError(null)
    try {
      const moved = await api.moveRecord(record.id, parentId, keepUrl)
      onMoved(record.parentId, parentId, moved.urlFull)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось перенести запись')
      setBusy(false)
    }
  }

  return (
    <form className="tree-move" aria-label={`Перенос «${record.title}»`} onSubmit={(event) => void submit(event)}>
      <AdminError message={error} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-parent`}>
          Новый раздел
        </label>
        <select
          id={`${id}-parent`}
          className="field__control"
          value={parentId ?? ''}
          disabled={!targets}
          onChange={(event) => setParentId(event.target.value === '' ? null : Number(event.target.value))}
        >
          <option value="">{targets ? 'Выберите раздел' : 'Загружаем разделы…'}</option>
          {targets?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title} — {t.urlFull}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="tree-move__url">
        <legend>Адрес страницы</legend>
        <label>
          <input type="radio" name={`${id}-url`} checked={!keepUrl} onChange={() => setKeepUrl(false)} /> Изменить
          {newUrl ? ` на ${newUrl}` : ' на адрес в новом разделе'}; со старого адреса будет переадресация (301)
        </label>
        <label>
          <input type="radio" name={`${id}-url`} checked={keepUrl} onChange={() => setKeepUrl(true)} /> Оставить
          прежний: {record.urlFull}
        </label>
      </fieldset>
      <div className="tree-move__buttons">
        <button type="submit" className="button button--small" disabled={busy}>
          Перенести
        </button>
        <button type="button" className="button button--quiet button--small" onClick={onCancel}>
          Отмена
        </button>
      </div>
    </form>
  )
}
