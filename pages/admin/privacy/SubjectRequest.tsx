// A person's data on request: find everything about a phone or an e-mail, download it, delete or
// anonymise it (docs/decisions/027-personal-data.md). A destructive action asks once more.
import { useId, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { subjectFileUrl, type PrivacyApi, type SubjectData } from '../../../src/admin/admin-privacy'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { Confirm } from '../layout/Confirm'

type Pending = 'delete' | 'anonymise' | null

export function SubjectRequest({
  api,
  timeZone,
  onChanged,
}: {
  api: PrivacyApi
  timeZone: string
  onChanged: () => void
}) {
  const id = useId()
  const [term, setTerm] = useState('')
  const [searched, setSearched] = useState('')
  const [found, setFound] = useState<SubjectData | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState('')
  const [pending, setPending] = useState<Pending>(null)
  const [busy, setBusy] = useState(false)

  const fail = (failure: unknown) =>
    setError(failure instanceof ApiError ? failure.message : 'Не удалось выполнить запрос. Попробуйте ещё раз.')

  async function search(event?: FormEvent) {
    event?.preventDefault()
    setError(null)
    setNotice('')
    setPending(null)
    setBusy(true)
    try {
      setFound(await api.findSubject(term))
      setSearched(term)
      onChanged()
    } catch (failure) {
      setFound(null)
      fail(failure)
    } finally {
      setBusy(false)
    }
  }

  async function erase(mode: 'delete' | 'anonymise') {
    setBusy(true)
    setError(null)
    try {
      const result = await api.eraseSubject(searched, mode)
      setNotice(
        `${mode === 'delete' ? 'Удалено' : 'Обезличено'}: заявок — ${result.leads}, записей доставки — ${result.deliveries}, выборов cookie — ${result.cookieChoices}.`,
      )
      setFound(null)
      setPending(null)
      onChanged()
    } catch (failure) {
      fail(failure)
    } finally {
      setBusy(false)
    }
  }

  const empty = found && found.leads.length === 0 && found.cookieChoices.length === 0 && found.deadLetters.length === 0
  return (
    <section className="admin-panel privacy-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Данные человека по запросу</h2>
      <p className="privacy-hint">
        Найдите всё, что сайт хранит о человеке, по телефону (в любой записи: +7, 8, с пробелами) или e-mail: заявки,
        записи доставки, выбор cookie. Выгрузите файл для ответа на запрос, затем удалите или обезличьте.
      </p>
      <form className="admin-toolbar" onSubmit={(event) => void search(event)}>
        <label className="privacy-field">
          <span>Телефон или e-mail</span>
          <input
            className="field__control"
            value={term}
            maxLength={200}
            onChange={(event) => setTerm(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </label>
        <button type="submit" className="button" disabled={busy}>
          Найти
        </button>
      </form>
      {error && (
        <p id={`${id}-error`} role="alert" className="admin-error">
          {error}
        </p>
      )}
      <p role="status" className="privacy-status">
        {notice}
      </p>
      {found && (
        <div className="privacy-found">
          <p>
            Найдено: заявок — {found.leads.length}
            {found.more ? ' (показаны первые)' : ''}, записей доставки — {found.deliveries.length}, выборов cookie —{' '}
            {found.cookieChoices.length}, несохранённых заявок — {found.deadLetters.length}.
          </p>
          {found.leads.length > 0 && (
            <ul className="privacy-list">
              {found.leads.map((lead) => (
                <li key={lead.id}>
                  №{lead.id}, {formatDateTimeIn(lead.createdAt, timeZone)}: {lead.username}, {lead.phone}, {lead.email}
                </li>
              ))}
            </ul>
          )}
          {!empty && (
            <div className="admin-toolbar">
              <a className="button button--quiet" href={subjectFileUrl(searched)} download>
                Скачать данные (JSON)
              </a>
              <button type="button" className="button button--danger" onClick={() => setPending('delete')}>
                Удалить всё
              </button>
              <button type="button" className="button button--quiet" onClick={() => setPending('anonymise')}>
                Обезличить
              </button>
            </div>
          )}
          {pending && (
            <Confirm
              className="admin-notice"
              question={
                pending === 'delete'
                  ? 'Удалить заявки человека, их доставку и его выбор cookie? Это нельзя отменить.'
                  : 'Заменить имя, телефон, e-mail и адрес в заявках человека? Это нельзя отменить.'
              }
              confirmLabel="Подтвердить"
              cancelLabel="Отменить"
              busy={busy}
              onConfirm={() => void erase(pending)}
              onCancel={() => setPending(null)}
            />
          )}
        </div>
      )}
    </section>
  )
}
