// «Персональные данные» (docs/decisions/027-personal-data.md): the operator's details the
// documents name (with a warning while any is empty), the three documents with their versions,
// the retention job's schedule and last run, the cookie choices' log, a person's data on request
// and the audit log of everything done with personal data.
import '../leads/leads.css'
import './privacy.css'
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import {
  COOKIE_CHOICES_CSV_URL,
  createPrivacyApi,
  type AuditEntry,
  type OperatorField,
  type PrivacyOverview,
} from '../../../src/admin/admin-privacy'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { useTimeZone } from '../layout/admin-context'
import { SubjectRequest } from './SubjectRequest'
import { ADMIN_PATHS } from '../../../src/site/paths'

const FIELD_LABELS: Readonly<Record<OperatorField, string>> = {
  name: 'Оператор (название организации или ФИО)',
  inn: 'ИНН',
  address: 'Адрес оператора',
}

const ACTIONS: Readonly<Record<string, string>> = {
  'retention.run': 'Обезличивание старых заявок',
  'subject.search': 'Поиск данных человека',
  'subject.export': 'Выгрузка данных человека',
  'subject.delete': 'Удаление данных человека',
  'subject.anonymise': 'Обезличивание данных человека',
  'operator.save': 'Изменены данные оператора',
  'cookies.export': 'Выгрузка журнала cookie',
}
const ACTORS: Readonly<Record<string, string>> = { owner: 'Владелец', retention: 'Автоматически' }

function detailText(entry: AuditEntry): string {
  const d = entry.detail
  const ids =
    Array.isArray(d.leadIds) && d.leadIds.length > 0 ? `заявки ${d.leadIds.map((i) => `№${i}`).join(', ')}` : ''
  const parts = [
    ids,
    typeof d.leads === 'number' ? `заявок: ${d.leads}` : '',
    typeof d.deliveries === 'number' ? `доставок: ${d.deliveries}` : '',
    typeof d.cookieChoices === 'number' ? `выборов cookie: ${d.cookieChoices}` : '',
    typeof d.rows === 'number' ? `строк: ${d.rows}` : '',
  ]
  return parts.filter(Boolean).join('; ')
}

export function PrivacyScreen() {
  const id = useId()
  const timeZone = useTimeZone()
  const api = useMemo(() => createPrivacyApi(), [])
  const [overview, setOverview] = useState<PrivacyOverview | null>(null)
  const [audit, setAudit] = useState<AuditEntry[]>([])
  const [draft, setDraft] = useState<Record<OperatorField, string>>({ name: '', inn: '', address: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState('')

  const load = useCallback(() => {
    api.overview().then(
      (data) => {
        setOverview(data)
        setDraft({ ...data.operator.values })
      },
      () => setProblem('Не удалось загрузить данные. Обновите страницу.'),
    )
    api.audit().then(setAudit, () => {})
  }, [api])
  useEffect(load, [load])

  async function save(event: FormEvent) {
    event.preventDefault()
    setErrors({})
    setSaved('')
    const editable = Object.fromEntries(
      (Object.keys(draft) as OperatorField[])
        .filter((field) => !overview?.operator.fromEnv.includes(field))
        .map((field) => [field, draft[field]]),
    )
    try {
      await api.saveOperator(editable)
      setSaved('Сохранено')
      load()
    } catch (failure) {
      if (failure instanceof ApiError) setErrors({ ...failure.errors, _: failure.message })
      else setErrors({ _: 'Не удалось сохранить. Попробуйте ещё раз.' })
    }
  }

  if (problem) return <p className="admin-error">{problem}</p>
  if (!overview) return <p role="status">Загружаем…</p>
  const { operator, documents, retention } = overview
  return (
    <div className="privacy">
      <h1>Персональные данные</h1>
      {operator.missing.length > 0 && (
        <p className="admin-notice privacy-warning" role="alert">
          Не заполнены данные оператора: {operator.missing.map((field) => FIELD_LABELS[field]).join(', ')}. Политика и
          согласие должны называть, кто обрабатывает персональные данные.
        </p>
      )}

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-operator`}>
        <h2 id={`${id}-operator`}>Оператор персональных данных</h2>
        <form onSubmit={(event) => void save(event)} className="privacy-form" noValidate>
          {(Object.keys(FIELD_LABELS) as OperatorField[]).map((field) => (
            <label key={field} className="privacy-field">
              <span>{FIELD_LABELS[field]}</span>
              <input
                className="field__control"
                value={draft[field]}
                disabled={operator.fromEnv.includes(field)}
                onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
                aria-invalid={errors[field] ? true : undefined}
              />
              {operator.fromEnv.includes(field) && <small>Задано в настройках сервера</small>}
              {errors[field] && <small className="admin-error">{errors[field]}</small>}
            </label>
          ))}
          <div className="admin-toolbar">
            <button type="submit" className="button">
              Сохранить
            </button>
            <span role="status">{saved}</span>
          </div>
          {errors._ && <p className="admin-error">{errors._}</p>}
        </form>
      </section>

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-documents`}>
        <h2 id={`${id}-documents`}>Документы</h2>
        <ul className="privacy-list">
          {documents.map((doc) => (
            <li key={doc.kind}>
              <strong>{doc.title}</strong>:{' '}
              {doc.url ? (
                <>
                  <a href={doc.url}>{doc.url}</a>, версия <code>{doc.version}</code>
                  {doc.recordId !== null && (
                    <>
                      {' '}
                      — <a href={ADMIN_PATHS.record(doc.recordId)}>редактировать</a>
                    </>
                  )}
                </>
              ) : (
                <span className="admin-badge admin-badge--warn">
                  не опубликован: создайте страницу с адресом …/{doc.slug}
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-retention`}>
        <h2 id={`${id}-retention`}>Срок хранения заявок</h2>
        {retention.days === 0 ? (
          <p>Заявки хранятся без срока (LEAD_RETENTION_DAYS=0).</p>
        ) : (
          <>
            <p>
              Через {retention.days} дн. имя, телефон, e-mail и адрес в заявке заменяются; сама заявка остаётся для
              статистики.
            </p>
            <p>Следующий запуск: {retention.nextRunAt ? formatDateTimeIn(retention.nextRunAt, timeZone) : '—'}</p>
            <p>
              Последний запуск:{' '}
              {retention.lastRunAt
                ? `${formatDateTimeIn(retention.lastRunAt, timeZone)}, обезличено заявок: ${retention.lastResult?.leads ?? 0}, удалено записей доставки: ${retention.lastResult?.deliveries ?? 0}`
                : 'ещё не было'}
            </p>
          </>
        )}
      </section>

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-cookies`}>
        <h2 id={`${id}-cookies`}>Согласия на cookie</h2>
        <p>
          <a href={COOKIE_CHOICES_CSV_URL} download>
            Скачать журнал выбора cookie (CSV)
          </a>
        </p>
      </section>

      <SubjectRequest api={api} timeZone={timeZone} onChanged={load} />

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-audit`}>
        <h2 id={`${id}-audit`}>Журнал действий с персональными данными</h2>
        {audit.length === 0 ? (
          <p>Записей пока нет.</p>
        ) : (
          <table className="privacy-audit">
            <thead>
              <tr>
                <th scope="col">Когда</th>
                <th scope="col">Кто</th>
                <th scope="col">Что</th>
                <th scope="col">Подробности</th>
              </tr>
            </thead>
            <tbody>
              {audit.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTimeIn(entry.at, timeZone)}</td>
                  <td>{ACTORS[entry.actor] ?? entry.actor}</td>
                  <td>{ACTIONS[entry.action] ?? entry.action}</td>
                  <td>{detailText(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  )
}
