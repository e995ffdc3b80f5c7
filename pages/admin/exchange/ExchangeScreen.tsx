// «Обмен с 1С» (docs/decisions/032-1c-exchange.md): what to paste into 1C's «Обмен с сайтом» (the
// address and the login; the password is the operator's, in the server's settings), the owner's
// switch and choices (the price type, the old price's type, what «нет на складе» shows), and the last
// exchanges: when, which files, what was created, updated and withdrawn, and what was skipped and why.
import './exchange.css'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import {
  createExchangeApi,
  type ExchangeOverview,
  type ExchangeRun,
  type ExchangeSettings,
} from '../../../src/admin/admin-exchange'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { formatRubles } from '../../../src/format/money'
import { useTimeZone } from '../layout/admin-context'

const STATUS_TEXT: Readonly<Record<ExchangeRun['status'], string>> = {
  running: 'идёт или прерван',
  success: 'успешно',
  failure: 'ошибка',
}

function tallyText(run: ExchangeRun): string {
  const t = run.tally
  const parts = [
    `разделов создано ${t.groupsCreated}, изменено ${t.groupsUpdated}, снято ${t.groupsWithdrawn}`,
    `товаров создано ${t.productsCreated}, изменено ${t.productsUpdated}, снято ${t.productsWithdrawn}`,
    `картинок ${t.imagesTaken}`,
    `цен и остатков обновлено ${t.offersUpdated}`,
  ]
  if (t.variants > 0) parts.push(`предложений характеристик ${t.variants}`)
  if ((t.ordersUpdated ?? 0) > 0) parts.push(`статусов заказов из 1С ${t.ordersUpdated}`)
  return parts.join('; ')
}

function RunItem({ run, timeZone }: { run: ExchangeRun; timeZone: string }) {
  return (
    <li className={`exchange-run exchange-run--${run.status}`}>
      <p>
        <time dateTime={run.startedAt}>{formatDateTimeIn(run.startedAt, timeZone)}</time> —{' '}
        <strong>{STATUS_TEXT[run.status]}</strong>
        {run.files.length > 0 && <>. Файлы: {run.files.join(', ')}</>}
      </p>
      {run.message && <p className="admin-error">{run.message}</p>}
      <p>{tallyText(run)}.</p>
      {run.skippedCount > 0 && (
        <details>
          <summary>Пропущено: {run.skippedCount}</summary>
          <ul>
            {run.skipped.map((skip, index) => (
              <li key={index}>
                {skip.what}: {skip.why}
              </li>
            ))}
          </ul>
          {run.skippedCount > run.skipped.length && <p>Показаны первые {run.skipped.length}.</p>}
        </details>
      )}
      {run.variants && run.variants.length > 0 && (
        <details>
          <summary>Предложения характеристик: {run.tally.variants}</summary>
          <ul>
            {run.variants.map((variant) => (
              <li key={variant.offer}>
                {variant.name ? `${variant.name} (${variant.offer})` : variant.offer}: цена{' '}
                {variant.price === null ? 'не указана' : formatRubles(variant.price)}, остаток{' '}
                {variant.quantity ?? 'не указан'}
              </li>
            ))}
          </ul>
          {run.tally.variants > run.variants.length && <p>Показаны первые {run.variants.length}.</p>}
        </details>
      )}
    </li>
  )
}

/** Where 1C connects: the address and login to give its «Обмен с сайтом», or how to switch it on. */
function ExchangeConnect({ overview }: { overview: ExchangeOverview }) {
  const id = useId()
  return (
    <section className="admin-panel exchange__section" aria-labelledby={`${id}-connect`}>
      <h2 id={`${id}-connect`}>Подключение</h2>
      {overview.configured ? (
        <>
          <p>В 1С откройте «Обмен с сайтом» (Администрирование → Обмен данными), создайте узел обмена и укажите:</p>
          <dl className="exchange__fields">
            <dt>Адрес сайта</dt>
            <dd>
              <code>{overview.url}</code>
            </dd>
            <dt>Пользователь</dt>
            <dd>
              <code>{overview.login}</code>
            </dd>
            <dt>Пароль</dt>
            <dd>
              задан (см. <a href={ADMIN_PATHS.settings}>«Настройки»</a>)
            </dd>
          </dl>
          <p className="exchange__hint">
            Выгружайте группы, товары, цены и остатки; заказы с сайта 1С заберёт как «Заказы покупателей».
          </p>
        </>
      ) : (
        <p className="exchange__hint">
          Обмен выключен. Чтобы включить, создайте логин и пароль для 1С в разделе{' '}
          <a href={ADMIN_PATHS.settings}>«Настройки»</a>. Здесь появится адрес для 1С.
        </p>
      )}
    </section>
  )
}

export function ExchangeScreen() {
  const id = useId()
  const timeZone = useTimeZone()
  const api = useMemo(() => createExchangeApi(), [])
  const [overview, setOverview] = useState<ExchangeOverview | null>(null)
  const [draft, setDraft] = useState<ExchangeSettings | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [saved, setSaved] = useState('')

  const load = useCallback(() => {
    api.overview().then(
      (data) => {
        setOverview(data)
        setDraft(data.settings)
      },
      () => setProblem('Не удалось загрузить настройки обмена. Обновите страницу.'),
    )
  }, [api])
  useEffect(load, [load])

  async function save(event: FormEvent) {
    event.preventDefault()
    if (!draft) return
    setErrors({})
    setSaved('')
    try {
      const data = await api.save(draft)
      setOverview(data)
      setDraft(data.settings)
      setSaved('Сохранено')
    } catch (failure) {
      if (failure instanceof ApiError) setErrors({ ...failure.errors, _: failure.message })
      else setErrors({ _: 'Не удалось сохранить. Попробуйте ещё раз.' })
    }
  }

  if (problem) return <p className="admin-error">{problem}</p>
  if (!overview || !draft) return <p role="status">Загружаем…</p>
  const last = overview.runs[0]
  return (
    <div className="exchange">
      <h1>Обмен с 1С</h1>
      {last?.status === 'failure' && (
        <p className="admin-notice" role="alert">
          Последний обмен завершился ошибкой: {last.message}
        </p>
      )}

      <ExchangeConnect overview={overview} />

      <section className="admin-panel exchange__section" aria-labelledby={`${id}-settings`}>
        <h2 id={`${id}-settings`}>Настройки</h2>
        <form onSubmit={(event) => void save(event)} className="exchange__form" noValidate>
          <label className="exchange__check">
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })}
            />
            <span>Принимать обмен от 1С</span>
          </label>
          <label className="exchange__field">
            <span>Тип цен для цены на сайте</span>
            <input
              className="field__control"
              list={`${id}-types`}
              value={draft.priceType}
              placeholder="первый из выгрузки"
              aria-invalid={errors.priceType ? true : undefined}
              onChange={(event) => setDraft({ ...draft, priceType: event.target.value })}
            />
            {errors.priceType && <small className="admin-error">{errors.priceType}</small>}
          </label>
          <label className="exchange__field">
            <span>Тип цен для старой цены (зачёркнутой)</span>
            <input
              className="field__control"
              list={`${id}-types`}
              value={draft.oldPriceType}
              placeholder="не показывать"
              aria-invalid={errors.oldPriceType ? true : undefined}
              onChange={(event) => setDraft({ ...draft, oldPriceType: event.target.value })}
            />
            {errors.oldPriceType && <small className="admin-error">{errors.oldPriceType}</small>}
          </label>
          <datalist id={`${id}-types`}>
            {overview.priceTypes.map((type) => (
              <option key={type.id} value={type.name} />
            ))}
          </datalist>
          <label className="exchange__field">
            <span>Товар без остатка показывать как</span>
            <select
              className="field__control"
              value={draft.zeroStock}
              onChange={(event) =>
                setDraft({ ...draft, zeroStock: event.target.value === 'on_order' ? 'on_order' : 'out_of_stock' })
              }
            >
              <option value="out_of_stock">Нет в наличии</option>
              <option value="on_order">Под заказ</option>
            </select>
          </label>
          <div className="admin-toolbar">
            <button type="submit" className="button">
              Сохранить
            </button>
            <span role="status">{saved}</span>
          </div>
          {errors._ && <p className="admin-error">{errors._}</p>}
        </form>
      </section>

      <section className="admin-panel exchange__section" aria-labelledby={`${id}-runs`}>
        <h2 id={`${id}-runs`}>Последние обмены</h2>
        {overview.runs.length === 0 ? (
          <p className="exchange__hint">Обменов ещё не было.</p>
        ) : (
          <ul className="exchange__runs">
            {overview.runs.map((run) => (
              <RunItem key={run.id} run={run} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
