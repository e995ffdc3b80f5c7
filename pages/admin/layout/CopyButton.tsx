import { useState } from 'react'

/** «Копировать» for a text the owner pastes elsewhere (an address, a login, a password shown once). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState('')
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setDone('Скопировано')
    } catch {
      setDone('Не удалось скопировать: выделите текст и скопируйте его сами')
    }
  }
  return (
    <>
      <button
        type="button"
        className="button button--quiet button--small"
        aria-label={label}
        onClick={() => void copy()}
      >
        Копировать
      </button>
      <span role="status" className="admin-hint">
        {done}
      </span>
    </>
  )
}
