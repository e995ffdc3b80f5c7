import { useId, useRef, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { newPasswordErrors } from '../../../src/admin/admin-password'
import { TextInput } from '../../../src/components/form/TextInput'
import { AdminError } from '../layout/AdminError'
import { useAdminApi, useSignInWith } from '../layout/admin-context'

type Field = 'current' | 'password' | 'repeat'
type Errors = Partial<Record<Field, string>>

/**
 * «Сменить пароль»: the current secret, then the new password twice. The server ends every other
 * session and keeps this one. ADMIN_PASSWORD is the operator's: it is changed on the server only.
 */
export function PasswordScreen() {
  const id = useId()
  const api = useAdminApi()
  const signInWith = useSignInWith()
  const [values, setValues] = useState<Record<Field, string | null>>({ current: null, password: null, repeat: null })
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const inputs = {
    current: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    repeat: useRef<HTMLInputElement>(null),
  }

  if (signInWith === 'environment') {
    return (
      <section aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>Сменить пароль</h1>
        <p className="admin-notice">
          Пароль задан переменной окружения ADMIN_PASSWORD на сервере, и сменить его можно только там: задайте новое
          значение и перезапустите сервер. Все сеансы при этом завершатся.
        </p>
      </section>
    )
  }

  function show(found: Errors) {
    setErrors(found)
    const field = (['current', 'password', 'repeat'] as const).find((name) => found[name])
    if (field) inputs[field].current?.focus()
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setDone(null)
    setFailure(null)
    const found: Errors = {
      ...(values.current ? {} : { current: 'Введите текущий пароль' }),
      ...newPasswordErrors(values.password, values.repeat),
    }
    show(found)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    try {
      await api.changePassword({ current: values.current ?? '', password: values.password ?? '' })
      setValues({ current: null, password: null, repeat: null })
      setDone('Пароль изменён. Остальные сеансы завершены: на других устройствах войдите с новым паролем.')
    } catch (error) {
      if (error instanceof ApiError && (error.errors.current || error.errors.password)) show({ ...error.errors })
      else setFailure(error instanceof ApiError ? error.message : 'Не удалось сменить пароль. Попробуйте ещё раз.')
    } finally {
      setBusy(false)
    }
  }

  const field = (name: Field, label: string, autoComplete: string, hint?: string) => (
    <TextInput
      id={`${id}-${name}`}
      name={name}
      type="password"
      label={label}
      autoComplete={autoComplete}
      required
      value={values[name]}
      onChange={(value) => setValues((before) => ({ ...before, [name]: value }))}
      error={errors[name]}
      hint={hint}
      ref={inputs[name]}
    />
  )

  return (
    <section className="admin-panel admin-password" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Сменить пароль</h1>
      <p>Новый пароль — не короче 10 символов. После смены все остальные сеансы завершатся, этот останется.</p>
      <AdminError message={failure} />
      <form className="fields" noValidate onSubmit={(event) => void submit(event)}>
        {field(
          'current',
          'Текущий пароль',
          'current-password',
          signInWith === 'token' ? 'Пароль ещё не задан: введите токен администратора (ADMIN_TOKEN).' : undefined,
        )}
        {field('password', 'Новый пароль', 'new-password')}
        {field('repeat', 'Повторите пароль', 'new-password')}
        <button type="submit" className="button button--accent" disabled={busy}>
          {busy ? 'Сохраняем…' : 'Сменить пароль'}
        </button>
        <p role="status">{done}</p>
      </form>
    </section>
  )
}
