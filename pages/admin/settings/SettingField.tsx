import type { SettingsView } from '../../../src/admin/admin-settings'
import type { FieldSpec } from './settings-fields'

interface Props {
  readonly spec: FieldSpec
  readonly view: SettingsView
  readonly value: string
  readonly error: string | undefined
  readonly onChange: (value: string) => void
}

/**
 * One setting: a labelled input; read-only with the variable's name when the server sets it; a
 * secret shows only whether it is set, and its input is empty (left empty, it stays as it is).
 */
export function SettingField({ spec, view, value, error, onChange }: Props) {
  const env = view.fromEnv[spec.key]
  const secret = spec.type === 'password'
  const isSet = secret ? (view.secrets as Record<string, boolean>)[spec.key] : false
  const errorId = `setting-${spec.key}-error`
  const hintId = `setting-${spec.key}-hint`
  const inputId = `setting-${spec.key}`
  const hint = env
    ? `Задано на сервере (${env})`
    : secret
      ? `${isSet ? 'Задан' : 'Не задан'}${isSet ? '; оставьте пустым, чтобы не менять' : ''}`
      : spec.hint
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  if (spec.type === 'checkbox') {
    return (
      <div className="settings__field">
        <label className="settings__check">
          <input
            type="checkbox"
            checked={value === 'true'}
            disabled={Boolean(env)}
            aria-describedby={describedBy}
            onChange={(event) => onChange(String(event.target.checked))}
          />
          <span>{spec.label}</span>
        </label>
        {hint && (
          <small id={hintId} className="admin-hint">
            {hint}
          </small>
        )}
        {error && (
          <small id={errorId} className="admin-error">
            {error}
          </small>
        )}
      </div>
    )
  }
  return (
    <div className="settings__field">
      <label htmlFor={inputId}>{spec.label}</label>
      <input
        id={inputId}
        className="field__control"
        type={spec.type ?? 'text'}
        value={env && secret ? '' : value}
        readOnly={Boolean(env)}
        placeholder={env ? undefined : secret && isSet ? '••••••••' : spec.placeholder}
        autoComplete={spec.autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <small id={hintId} className="admin-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="admin-error">
          {error}
        </small>
      )}
    </div>
  )
}
