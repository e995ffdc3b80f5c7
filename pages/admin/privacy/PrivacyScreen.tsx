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
import { useTimeZone } from '../layout/admin-context'
import { SubjectRequest } from './SubjectRequest'
import { AuditSection, DocumentsSection, RetentionSection } from './privacy-sections'

const FIELD_LABELS: Readonly<Record<OperatorField, string>> = {
  name: 'Оператор (название организации или ФИО)',
  inn: 'ИНН',
  address: 'Адрес оператора',
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

      <DocumentsSection documents={documents} />
      <RetentionSection retention={retention} timeZone={timeZone} />

      <section className="admin-panel privacy-section" aria-labelledby={`${id}-cookies`}>
        <h2 id={`${id}-cookies`}>Согласия на cookie</h2>
        <p>
          <a href={COOKIE_CHOICES_CSV_URL} download>
            Скачать журнал выбора cookie (CSV)
          </a>
        </p>
      </section>

      <SubjectRequest api={api} timeZone={timeZone} onChanged={load} />

      <AuditSection audit={audit} timeZone={timeZone} />
    </div>
  )
}
