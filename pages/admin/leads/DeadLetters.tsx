import { useEffect, useId, useState } from 'react'
import type { AdminDeadLetter } from '../../../src/admin/admin-leads'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { telLink } from '../../../src/format/phone'
import { useAdminApi, useTimeZone } from '../layout/admin-context'

/**
 * Leads the database refused for good after an outage (the journal's dead letters): shown above
 * the inbox while there are any, with what the owner needs to answer the visitor anyway.
 */
export function DeadLetters() {
  const api = useAdminApi()
  const timeZone = useTimeZone()
  const id = useId()
  const [{ data: letters, total }, setLetters] = useState<{ data: AdminDeadLetter[]; total: number }>({
    data: [],
    total: 0,
  })

  useEffect(() => {
    const controller = new AbortController()
    // A failed load shows nothing here; the inbox reports its own failures.
    api.deadLetters(controller.signal).then(setLetters, () => {})
    return () => controller.abort()
  }, [api])

  if (letters.length === 0) return null
  return (
    <section className="admin-panel lead-dead-letters" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Не удалось сохранить заявки: {total}</h2>
      <p>
        Эти заявки пришли, пока база данных была недоступна, и она не приняла их потом. Свяжитесь с людьми сами. Заявки
        хранятся в файле dead-letters.journal в папке журнала заявок на сервере; удалите его, когда ответите всем.
      </p>
      <ul className="lead-dead-letters__list">
        {letters.map((letter, index) => (
          <li key={`${letter.movedAt}-${index}`}>
            <strong>{letter.username || 'Без имени'}</strong>
            {letter.sentAt && (
              <>
                {' '}
                · <time dateTime={letter.sentAt}>{formatDateTimeIn(letter.sentAt, timeZone)}</time>
              </>
            )}
            <span className="lead-card__contacts">
              {letter.phone && <a href={telLink(letter.phone)}>{letter.phone}</a>}
              {letter.email && <a href={`mailto:${letter.email}`}>{letter.email}</a>}
            </span>
            {letter.sourceUrl && <span className="lead-dead-letters__detail">Страница: {letter.sourceUrl}</span>}
            <span className="lead-dead-letters__detail">Причина: {letter.reason}</span>
          </li>
        ))}
      </ul>
      {total > letters.length && <p>Показаны первые {letters.length}: остальные — в файле.</p>}
    </section>
  )
}
