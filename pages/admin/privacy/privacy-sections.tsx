// «Персональные данные»'s read-only sections (PrivacyScreen.tsx): the documents with their
// versions, the retention job's schedule and last run, and the audit log of personal data.
import { useId } from 'react'
import type { AuditEntry, PrivacyOverview } from '../../../src/admin/admin-privacy'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { ADMIN_PATHS } from '../../../src/site/paths'

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

export function DocumentsSection({ documents }: { documents: PrivacyOverview['documents'] }) {
  const id = useId()
  return (
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
  )
}

export function RetentionSection({
  retention,
  timeZone,
}: {
  retention: PrivacyOverview['retention']
  timeZone: string
}) {
  const id = useId()
  return (
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
  )
}

export function AuditSection({ audit, timeZone }: { audit: readonly AuditEntry[]; timeZone: string }) {
  const id = useId()
  return (
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
  )
}
