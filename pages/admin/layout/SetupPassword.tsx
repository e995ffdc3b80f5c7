import { useId, useRef, useState, type FormEvent } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { ApiError } from '../../../src/api/http-client'
import { setUpPassword } from '../../../src/admin/admin-api'
import { newPasswordErrors } from '../../../src/admin/admin-password'
import { TextInput } from '../../../src/components/form/TextInput'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { AdminError } from './AdminError'

type Errors = { password?: string; repeat?: string }

/**
 * The one-time link printed at start (`/admin/setup?token=…`): the owner chooses the first password
 * and is signed in with it. The server spends the link; a spent or expired one is refused in Russian.
 */
export function SetupPassword() {
  const id = useId()
  const token = usePageContext().urlParsed.search.token ?? ''
  const [password, setPassword] = useState<string | null>(null)
  const [repeat, setRepeat] = useState<string | null>(null)
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const first = useRef<HTMLInputElement>(null)
  const second = useRef<HTMLInputElement>(null)

  function show(found: Errors) {
    setErrors(found)
    // The field is described by its error, so focusing it reads the message out.
    if (found.password) first.current?.focus()
    else if (found.repeat) second.current?.focus()
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const found = newPasswordErrors(password, repeat)
    show(found)
    setFailure(null)
    if (found.password || found.repeat) return
    setBusy(true)
    try {
      await setUpPassword({ token, password: password ?? '' })
      // Signed in: the inbox, and the link is not left behind in this tab's history.
      window.location.replace(ADMIN_PATHS.leads)
    } catch (error) {
      setBusy(false)
      if (error instanceof ApiError && error.errors.password) return show({ password: error.errors.password })
      setFailure(error instanceof ApiError ? error.message : 'Не удалось сохранить пароль. Попробуйте ещё раз.')
    }
  }

  return (
    <section className="admin-signin" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Пароль владельца</h1>
      {token === '' ? (
        <AdminError message="Ссылка неполная: скопируйте её из консоли сервера целиком." />
      ) : (
        <>
          <p>
            Придумайте пароль для входа в управление сайтом — не короче 10 символов. Ссылка одноразовая: после
            сохранения вы сразу войдёте, а дальше вход — по этому паролю.
          </p>
          <AdminError message={failure} />
          <form className="fields" noValidate onSubmit={(event) => void submit(event)}>
            <TextInput
              id={`${id}-password`}
              name="password"
              type="password"
              label="Новый пароль"
              autoComplete="new-password"
              required
              value={password}
              onChange={setPassword}
              error={errors.password}
              ref={first}
            />
            <TextInput
              id={`${id}-repeat`}
              name="repeat"
              type="password"
              label="Повторите пароль"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={setRepeat}
              error={errors.repeat}
              ref={second}
            />
            <button type="submit" className="button button--accent" disabled={busy}>
              {busy ? 'Сохраняем…' : 'Сохранить пароль'}
            </button>
          </form>
          <p>
            <a href={ADMIN_PATHS.leads}>Ко входу</a>
          </p>
        </>
      )}
    </section>
  )
}
