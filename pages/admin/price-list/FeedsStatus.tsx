// «Выгрузки»: what goes out of the catalogue (docs/decisions/029-price-list-and-feeds.md). The Yandex
// feed's absolute URL to paste into Direct or Webmaster when YANDEX_FEED is on, else how to turn it
// on; the offers Yandex Товары would refuse (no brand, picture or description), counted, the first
// few linked to their edit screens; IndexNow on or off, the URLs waiting and sent, and the batches
// Yandex refused for good.
import { useEffect, useId, useState } from 'react'
import type { FeedRefusal, FeedsStatus as Status, PriceListApi } from '../../../src/admin/admin-price-list'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { useTimeZone } from '../layout/admin-context'
import { CopyButton } from '../layout/CopyButton'

// What a dead batch's answer means to the owner (the worker keeps 'HTTP <status>', 'timeout'…).
const REASONS: Readonly<Record<string, string>> = {
  'HTTP 400': 'Яндекс не понял запрос (400)',
  'HTTP 403': 'Яндекс не принял ключ (403): проверьте, что файл ключа открывается по адресу сайта',
  'HTTP 405': 'адрес IndexNow не принимает такие запросы (405): проверьте INDEXNOW_URL',
  'HTTP 422': 'адреса не относятся к сайту или не совпадает ключ (422): проверьте PUBLIC_URL',
  timeout: 'Яндекс не ответил вовремя, попытки кончились',
  'network error': 'нет связи с Яндексом, попытки кончились',
}

const REFUSAL_TITLES: Readonly<Record<FeedRefusal['reason'], string>> = {
  vendor: 'Без бренда',
  picture: 'Без фото',
  description: 'Без описания',
}

/** The offers Yandex Товары would refuse, per reason: how many, and the first few to fix. */
function Refusals({ feed }: { feed: Status['yandexFeed'] }) {
  const refused = feed.reasons.filter((r) => r.count > 0)
  const vendorHint = feed.defaultVendor ? (
    <p className="price-list__hint">
      Товарам без бренда фид ставит бренд по умолчанию: «{feed.defaultVendor}» (YANDEX_FEED_VENDOR).
    </p>
  ) : null
  if (refused.length === 0) {
    return (
      <>
        <p data-count="offers">Предложений в фиде: {feed.offers}. У всех есть бренд, фото и описание.</p>
        {vendorHint}
      </>
    )
  }
  return (
    <>
      <h4>Яндекс Товары не примет</h4>
      <p>
        Предложений в фиде: {feed.offers}. Товары требуют у каждого бренд, фото и описание и отклонят предложения без
        них:
      </p>
      <ul className="price-list__refused">
        {refused.map(({ reason, count, examples }) => (
          <li key={reason} data-reason={reason}>
            {REFUSAL_TITLES[reason]}: <strong data-count={reason}>{count}</strong>. Например:{' '}
            {examples.map((example, i) => (
              <span key={example.id}>
                {i > 0 && ', '}
                <a href={ADMIN_PATHS.record(example.id)}>{example.title}</a>
              </span>
            ))}
            {count > examples.length && ` и ещё ${count - examples.length}`}.
            {reason === 'vendor' && (
              <span className="price-list__hint">
                {' '}
                Укажите бренд в карточке товара, а для товаров своего производства задайте бренд по умолчанию —
                YANDEX_FEED_VENDOR в настройках сервера.
              </span>
            )}
          </li>
        ))}
      </ul>
      {vendorHint}
    </>
  )
}

export function FeedsStatus({ api, reload }: { api: PriceListApi; reload: number }) {
  const id = useId()
  const timeZone = useTimeZone()
  const [status, setStatus] = useState<Status | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    api.feeds(controller.signal).then(
      (data) => {
        setStatus(data)
        setProblem(null)
      },
      () => {
        if (!controller.signal.aborted) setProblem('Не удалось загрузить состояние выгрузок. Обновите страницу.')
      },
    )
    return () => controller.abort()
  }, [api, reload])

  return (
    <section className="admin-panel price-list__section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Выгрузки</h2>
      {problem && <p className="admin-error">{problem}</p>}
      {!status && !problem && <p role="status">Загружаем…</p>}
      {status && (
        <>
          <h3>Фид для Яндекс Директа и Товаров</h3>
          {status.yandexFeed.url ? (
            <>
              <p>Фид включён. Вставьте этот адрес в Яндекс Директ (Фиды) или в Яндекс Вебмастер (Товары и цены):</p>
              <div className="admin-toolbar">
                <code className="price-list__url" id={`${id}-feed`}>
                  {status.yandexFeed.url}
                </code>
                <CopyButton text={status.yandexFeed.url} label="Копировать адрес фида" />
              </div>
            </>
          ) : (
            <p className="price-list__hint">
              Фид выключен. Чтобы включить, задайте в настройках сервера YANDEX_FEED=true (название магазина для фида —
              YANDEX_FEED_NAME и YANDEX_FEED_COMPANY) и PUBLIC_URL — адрес сайта, затем перезапустите сайт. Здесь
              появится адрес фида.
            </p>
          )}
          <Refusals feed={status.yandexFeed} />
          <h3>IndexNow: Яндекс узнаёт об изменениях сразу</h3>
          {status.indexNow.enabled ? (
            <p>
              Включено. Ожидают отправки адресов: <strong data-count="pending">{status.indexNow.pending}</strong>,
              отправлено: {status.indexNow.sent}, не принято: {status.indexNow.dead}.
              {status.indexNow.keyUrl && (
                <>
                  {' '}
                  Файл ключа: <a href={status.indexNow.keyUrl}>{status.indexNow.keyUrl}</a>
                </>
              )}
            </p>
          ) : (
            <p className="price-list__hint">
              Выключено. IndexNow работает, когда в настройках сервера задан PUBLIC_URL (адрес сайта) и не задано
              INDEXNOW=off.
            </p>
          )}
          {status.indexNow.deadBatches.length > 0 && (
            <>
              <h4>Яндекс не принял</h4>
              <ul className="price-list__dead">
                {status.indexNow.deadBatches.map((batch) => (
                  <li key={`${batch.at}-${batch.reason}`}>
                    <time dateTime={batch.at}>{formatDateTimeIn(batch.at, timeZone)}</time>: адресов — {batch.urls},
                    например {batch.example}. Причина: {REASONS[batch.reason] ?? batch.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  )
}
