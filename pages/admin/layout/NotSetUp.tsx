import { useId } from 'react'

/**
 * While no password exists and none is configured: where the owner finds the one-time link to
 * choose one (the start prints it; docs/decisions/038-first-sign-in.md). No form: nothing could sign in.
 */
export function NotSetUp() {
  const id = useId()
  return (
    <section className="admin-signin" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Вход в управление сайтом</h1>
      <p className="admin-notice" role="status">
        Пароль владельца ещё не задан.
      </p>
      <p>
        Ссылка, по которой его можно задать, напечатана в консоли сервера при запуске: в окне, где запущена команда{' '}
        <code>npm start</code>, строка начинается со слов {"«Choose the owner's password»"}. Откройте эту ссылку в
        браузере и придумайте пароль.
      </p>
      <p>
        Ссылка действует час и только один раз. Если она устарела или потерялась, перезапустите сервер — в консоли
        появится новая.
      </p>
    </section>
  )
}
