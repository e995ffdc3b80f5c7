import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { CheckResult, SettingCheck, SettingsApi, SettingsView } from '../../../src/admin/admin-settings'
import { SettingField } from './SettingField'
import type { FieldSpec } from './settings-fields'

interface Props {
  readonly id: string
  readonly title: string
  readonly fields: readonly FieldSpec[]
  readonly view: SettingsView
  readonly api: SettingsApi
  readonly onView: (view: SettingsView) => void
  /** The group's check and its button's label */
  readonly check?: { readonly kind: SettingCheck; readonly label: string }
  /** What the group shows before its fields (a warning) and after them (its own buttons) */
  readonly intro?: ReactNode
  readonly children?: ReactNode
}

const draftOf = (fields: readonly FieldSpec[], view: SettingsView) =>
  Object.fromEntries(
    fields.map((f) => [f.key, f.type === 'password' ? '' : ((view.values as Record<string, string>)[f.key] ?? '')]),
  )

/**
 * A group of settings: its fields, «Сохранить» (only what changed is sent; a wrong value changes
 * nothing and shows its reason under its field) and its check, which saves unsaved edits first.
 */
export function SettingsGroup({ id, title, fields, view, api, onView, check, intro, children }: Props) {
  const [draft, setDraft] = useState<Record<string, string>>(() => draftOf(fields, view))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [status, setStatus] = useState('')
  const [result, setResult] = useState<CheckResult | null>(null)
  const [busy, setBusy] = useState(false)
  const editable = fields.filter((f) => !view.fromEnv[f.key])
  const initial = draftOf(fields, view)
  // A value saved elsewhere (another group's button, a chat chosen) replaces a field left untouched.
  const shown = useRef(initial)
  const key = JSON.stringify(initial)
  useEffect(() => {
    const before = shown.current
    shown.current = draftOf(fields, view)
    setDraft((current) =>
      Object.fromEntries(Object.entries(current).map(([k, v]) => [k, v === before[k] ? shown.current[k] : v])),
    )
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is what changed of `view`
  }, [key])
  const changes = Object.fromEntries(
    editable.filter((f) => draft[f.key] !== initial[f.key]).map((f) => [f.key, draft[f.key]]),
  )
  const dirty = Object.keys(changes).length > 0

  async function save(): Promise<boolean> {
    setErrors({})
    setStatus('')
    try {
      const next = await api.save(changes)
      onView(next)
      setDraft(draftOf(fields, next))
      setStatus('Сохранено')
      return true
    } catch (failure) {
      if (failure instanceof ApiError) setErrors({ ...failure.errors, _: failure.message })
      else setErrors({ _: 'Не удалось сохранить. Попробуйте ещё раз.' })
      return false
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    await save()
    setBusy(false)
  }

  async function runCheck() {
    if (!check) return
    setBusy(true)
    setResult(null)
    if (!dirty || (await save())) {
      try {
        setResult(await api.check(check.kind))
      } catch (failure) {
        setResult({ ok: false, message: failure instanceof ApiError ? failure.message : 'Проверка не удалась' })
      }
    }
    setBusy(false)
  }

  return (
    <section className="admin-panel settings__group" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro}
      <form onSubmit={(event) => void submit(event)} className="settings__form" noValidate>
        {fields.map((spec) => (
          <SettingField
            key={spec.key}
            spec={spec}
            view={view}
            value={draft[spec.key] ?? ''}
            error={errors[spec.key]}
            onChange={(value) => setDraft({ ...draft, [spec.key]: value })}
          />
        ))}
        {children}
        <div className="admin-toolbar settings__buttons">
          {editable.length > 0 && (
            <button type="submit" className="button" disabled={busy}>
              Сохранить
            </button>
          )}
          {check && (
            <button type="button" className="button button--quiet" disabled={busy} onClick={() => void runCheck()}>
              {check.label}
            </button>
          )}
          <span role="status">{status}</span>
        </div>
        {errors._ && <p className="admin-error">{errors._}</p>}
        <p
          role="status"
          className={result ? `settings__result settings__result--${result.ok ? 'ok' : 'fail'}` : undefined}
        >
          {result?.message}
        </p>
      </form>
    </section>
  )
}
