// «Прайс-лист» (docs/decisions/029-price-list-and-feeds.md): the owner picks a CSV or XLSX file, sees
// what it would change (nothing is written), then applies it with the preview's confirm code. When
// the catalogue or the file changed in between (409) the screen says so and offers a fresh preview.
// Below it, «Выгрузки»: the Yandex feed's URL and IndexNow's state.
import './price-list.css'
import { useId, useMemo, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import {
  createPriceListApi,
  type PriceApplied,
  type PriceCounts,
  type PricePreview,
} from '../../../src/admin/admin-price-list'
import { FeedsStatus } from './FeedsStatus'
import { PreviewView } from './PreviewView'

type Step =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'preview'; preview: PricePreview }
  | { kind: 'applying'; preview: PricePreview }
  | { kind: 'applied'; result: PriceApplied }
  /** 409: the catalogue or the file changed since the preview */
  | { kind: 'stale'; message: string }

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The models' variants, when a row of the file has a «Модель» or a variant's артикул. */
function variantsText({ variants }: PriceCounts, future: boolean): string {
  if (!variants || variants.created + variants.updated + variants.removed === 0) return ''
  return future
    ? `; варианты: новых ${variants.created}, изменится ${variants.updated}, будет удалено ${variants.removed}`
    : `; варианты: новых ${variants.created}, изменено ${variants.updated}, удалено ${variants.removed}`
}

function countsText(counts: PriceCounts, future: boolean): string {
  return future
    ? `обновится: ${counts.updated}, будет создано: ${counts.created}, без изменений: ${counts.unchanged}, отклонено строк: ${counts.refused.length}${counts.sections.length > 0 ? `, будут созданы разделы: ${counts.sections.join(', ')}` : ''}${variantsText(counts, true)}`
    : `обновлено: ${counts.updated}, создано: ${counts.created}, без изменений: ${counts.unchanged}, пропущено строк: ${counts.refused.length}${counts.sections.length > 0 ? `, созданы разделы: ${counts.sections.join(', ')}` : ''}${variantsText(counts, false)}`
}

function statusText(step: Step): string {
  switch (step.kind) {
    case 'checking':
      return 'Проверяем файл…'
    case 'preview':
      return `Предпросмотр готов: ${countsText(step.preview, true)}. Сайт не изменится, пока вы не нажмёте «Применить».`
    case 'applying':
      return 'Применяем прайс-лист…'
    case 'applied':
      return `Прайс-лист применён: ${countsText(step.result, false)}.`
    default:
      return ''
  }
}

const failureText = (failure: unknown) =>
  failure instanceof ApiError ? failure.message : 'Не удалось выполнить запрос. Попробуйте ещё раз.'

export function PriceListScreen() {
  const id = useId()
  const api = useMemo(() => createPriceListApi(), [])
  const [file, setFile] = useState<File | null>(null)
  const [step, setStep] = useState<Step>({ kind: 'idle' })
  const [error, setError] = useState<string | null>(null)
  // Bumped after an apply: «Выгрузки» reloads (IndexNow has new URLs waiting).
  const [applied, setApplied] = useState(0)

  async function preview(event?: FormEvent) {
    event?.preventDefault()
    setError(null)
    if (!file) {
      setError('Выберите файл прайс-листа (CSV или XLSX)')
      return
    }
    setStep({ kind: 'checking' })
    try {
      setStep({ kind: 'preview', preview: await api.preview(file) })
    } catch (failure) {
      setStep({ kind: 'idle' })
      setError(failureText(failure))
    }
  }

  async function apply(current: PricePreview) {
    if (!file) return
    setError(null)
    setStep({ kind: 'applying', preview: current })
    try {
      const result = await api.apply(file, current.confirm)
      setStep({ kind: 'applied', result })
      setApplied((n) => n + 1)
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) setStep({ kind: 'stale', message: failure.message })
      else {
        setStep({ kind: 'preview', preview: current })
        setError(failureText(failure))
      }
    }
  }

  const shown = step.kind === 'preview' || step.kind === 'applying' ? step.preview : null
  const nothingToDo = shown !== null && shown.updated + shown.created === 0
  return (
    <div className="price-list">
      <h1>Прайс-лист</h1>
      <section className="admin-panel price-list__section" aria-labelledby={`${id}-upload`}>
        <h2 id={`${id}-upload`}>Загрузить цены и наличие</h2>
        <p className="price-list__hint">
          Файл CSV (как его сохраняет Excel) или XLSX. Товары находятся по столбцу «Артикул»; столбцы «Наименование»,
          «Цена», «Старая цена», «Наличие», «Раздел», «Бренд» меняют эти поля, остальные становятся характеристиками.
          Строки с одинаковой «Моделью» в одном разделе — варианты одного товара (модель — его название): у каждой свой
          артикул, цена и наличие, а характеристики, которые в строках разные (цвет, размер), — выбор варианта на
          странице товара. Вариант модели, которого нет среди её строк, удаляется. Сначала вы увидите, что изменится, —
          на сайт ничего не попадёт, пока вы не нажмёте «Применить».
        </p>
        <form className="admin-toolbar" onSubmit={(event) => void preview(event)} noValidate>
          <label className="price-list__field">
            <span>Файл прайс-листа</span>
            <input
              type="file"
              accept={ACCEPT}
              className="field__control"
              aria-invalid={error !== null && file === null ? true : undefined}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null)
                setStep({ kind: 'idle' })
                setError(null)
              }}
            />
          </label>
          <button type="submit" className="button" disabled={step.kind === 'checking' || step.kind === 'applying'}>
            Проверить файл
          </button>
        </form>
        <p role="status" className="price-list__status">
          {statusText(step)}
        </p>
        {error && (
          <p role="alert" className="admin-error">
            {error}
          </p>
        )}
        {step.kind === 'stale' && (
          <div role="alert" className="admin-notice">
            <p>{step.message}</p>
            <button type="button" className="button" onClick={() => void preview()}>
              Проверить файл заново
            </button>
          </div>
        )}
        {shown && (
          <PreviewView preview={shown}>
            {nothingToDo ? (
              <p>Применять нечего: в файле нет изменений для каталога.</p>
            ) : (
              <div className="admin-toolbar">
                <button
                  type="button"
                  className="button"
                  disabled={step.kind === 'applying'}
                  onClick={() => void apply(shown)}
                >
                  Применить
                </button>
                <span className="price-list__hint">
                  {shown.refused.length > 0 ? 'Отклонённые строки будут пропущены.' : ''}
                </span>
              </div>
            )}
          </PreviewView>
        )}
      </section>
      <FeedsStatus api={api} reload={applied} />
    </div>
  )
}
