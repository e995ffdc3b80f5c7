import { useId, useRef, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { signIn } from '../../../src/admin/admin-api'
import { TextInput } from '../../../src/components/form/TextInput'

/**
 * The secret that signs in (ADMIN_PASSWORD, else the owner's password, else ADMIN_TOKEN) for a
 * session; the server limits attempts.
 */
export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
  const id = useId()
  const [secret, setSecret] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!secret) {
      setError('Введите пароль')
      input.current?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      await signIn(secret)
      onSignedIn()
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось войти. Попробуйте ещё раз.')
      // The field is described by its error, so focusing it reads the message out.
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="admin-signin" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Вход в управление сайтом</h1>
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      <form className="fields" noValidate onSubmit={(event) => void submit(event)}>
        <TextInput
          id={`${id}-secret`}
          name="secret"
          type="password"
          label="Пароль"
          autoComplete="current-password"
          required
          value={secret}
          onChange={setSecret}
          error={error ?? undefined}
          ref={input}
        />
        <button type="submit" className="button button--accent" disabled={busy}>
          {busy ? 'Входим…' : 'Войти'}
        </button>
      </form>
    </section>
  )
}
