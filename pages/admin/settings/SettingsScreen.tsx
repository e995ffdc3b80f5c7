// «Настройки» (docs/decisions/039-settings.md): where leads go (e-mail, Telegram, a webhook), the
// site's address, the Yandex feed, Metrika and 1C's login and password; each group with a check
// that shows it works, and the log of changes. What the server sets shows read-only; secrets are
// never shown, only whether they are set.
import './settings.css'
import { useEffect, useId, useMemo, useState } from 'react'
import { createSettingsApi, type SettingsView } from '../../../src/admin/admin-settings'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { useTimeZone } from '../layout/admin-context'
import { SettingsGroup } from './SettingsGroup'
import { ExchangeCredentials, TelegramChats, WebhookSecret } from './SettingsExtras'
import { FIELDS } from './settings-fields'

const ACTIONS = { set: 'изменено', cleared: 'очищено', generated: 'создано' } as const

export function SettingsScreen() {
  const id = useId()
  const timeZone = useTimeZone()
  const api = useMemo(() => createSettingsApi(), [])
  const [view, setView] = useState<SettingsView | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    api.view().then(setView, () => setProblem('Не удалось загрузить настройки. Обновите страницу.'))
  }, [api])

  if (problem) return <p className="admin-error">{problem}</p>
  if (!view) return <p role="status">Загружаем…</p>
  const group = { view, api, onView: setView }
  return (
    <div className="settings">
      <h1>Настройки</h1>
      <p className="admin-hint">
        Изменения действуют на всём сайте через несколько секунд, без перезапуска. Заявки сейчас уходят:{' '}
        {view.channels.length === 0
          ? 'никуда, только в раздел «Заявки»'
          : view.channels
              .map((c) => ({ email: 'на почту', telegram: 'в Telegram', webhook: 'на вебхук' })[c])
              .join(', ')}
        .
      </p>

      <SettingsGroup
        {...group}
        id={`${id}-email`}
        title="Письма о заявках"
        fields={FIELDS.email}
        check={{ kind: 'email', label: 'Отправить тестовое письмо' }}
      />
      <SettingsGroup
        {...group}
        id={`${id}-telegram`}
        title="Telegram"
        fields={FIELDS.telegram}
        check={{ kind: 'telegram', label: 'Проверить' }}
        intro={
          <p className="admin-hint">
            Серверы Telegram за рубежом, поэтому по умолчанию в сообщение попадают только номер заявки и ссылка на неё,
            без имени и телефона посетителя.
          </p>
        }
      >
        <TelegramChats {...group} />
      </SettingsGroup>
      <SettingsGroup
        {...group}
        id={`${id}-webhook`}
        title="Вебхук"
        fields={FIELDS.webhook}
        check={{ kind: 'webhook', label: 'Отправить тестовый вызов' }}
      >
        <WebhookSecret {...group} />
      </SettingsGroup>
      <SettingsGroup
        {...group}
        id={`${id}-site`}
        title="Адрес сайта"
        fields={FIELDS.site}
        check={{ kind: 'public-url', label: 'Проверить адрес' }}
      />
      <SettingsGroup
        {...group}
        id={`${id}-feed`}
        title="Фид для Яндекса"
        fields={FIELDS.feed}
        check={{ kind: 'feed', label: 'Проверить фид' }}
        intro={
          view.feedUrl && (
            <p>
              Адрес фида: <code>{view.feedUrl}</code>
            </p>
          )
        }
      />
      <SettingsGroup
        {...group}
        id={`${id}-metrika`}
        title="Яндекс Метрика"
        fields={FIELDS.metrika}
        check={{ kind: 'metrika', label: 'Проверить счётчик' }}
      />
      <SettingsGroup
        {...group}
        id={`${id}-exchange`}
        title="Обмен с 1С"
        fields={FIELDS.exchange}
        intro={view.publicUrlWarning && <p className="admin-notice">{view.publicUrlWarning}</p>}
      >
        <ExchangeCredentials {...group} />
      </SettingsGroup>

      <section className="admin-panel settings__group" aria-labelledby={`${id}-audit`}>
        <h2 id={`${id}-audit`}>Журнал изменений</h2>
        {view.audit.length === 0 ? (
          <p className="admin-hint">Настройки ещё не меняли.</p>
        ) : (
          <ul className="settings__audit">
            {view.audit.map((entry, index) => (
              <li key={index}>
                {formatDateTimeIn(entry.at, timeZone)} · {entry.who} · <code>{entry.key}</code> {ACTIONS[entry.action]}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
