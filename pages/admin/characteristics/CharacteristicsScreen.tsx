// «Характеристики» (docs/decisions/042-characteristics-and-filters.md): every characteristic the
// catalogue's products carry (from 1C's Свойства, the price list's columns, the editor), each with
// the owner's choices: the name and unit the site shows, shown on the product page (and in its
// JSON-LD and the feed) or not, a filter in sections (values or a range) or not, the order. A
// choice holds across every later exchange and price list: they write the names as they come.
import './characteristics.css'
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { createCharacteristicsApi, type CharacteristicChange } from '../../../src/admin/admin-characteristics'
import {
  FILTER_KIND_LABELS,
  FILTER_KINDS,
  type FilterKind,
  type ListedCharacteristic,
} from '../../../src/catalogue/characteristics'

type Api = ReturnType<typeof createCharacteristicsApi>

function storedName(c: ListedCharacteristic): string {
  if (c.source === 'vendor') return 'Бренд товара'
  return c.unit ? `${c.name}, ${c.unit}` : c.name
}

function CharacteristicForm({
  item,
  api,
  onSaved,
}: {
  item: ListedCharacteristic
  api: Api
  onSaved: (list: ListedCharacteristic[]) => void
}) {
  const id = useId()
  // The product's brand (its own field, not a characteristics row): filtered by its values only.
  const brand = item.source === 'vendor'
  const [draft, setDraft] = useState<CharacteristicChange>(item)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [status, setStatus] = useState('')
  const set = (change: Partial<CharacteristicChange>) => {
    setDraft((d) => ({ ...d, ...change }))
    setStatus('')
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    setErrors({})
    try {
      onSaved(await api.save(item.id, draft))
      setStatus('Сохранено')
    } catch (failure) {
      if (failure instanceof ApiError) setErrors({ ...failure.errors, _: failure.message })
      else setErrors({ _: 'Не удалось сохранить. Попробуйте ещё раз.' })
    }
  }

  return (
    <form className="characteristic admin-panel" onSubmit={save} aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`} className="characteristic__name">
        {storedName(item)} <small>(товаров: {item.products})</small>
      </h2>
      {item.suggestion && (
        <p className="characteristic__suggestion">
          Предлагаем: «{item.suggestion.title}»{item.suggestion.unit && <>, единица «{item.suggestion.unit}»</>}{' '}
          <button
            type="button"
            className="button"
            onClick={() => set({ title: item.suggestion!.title, shownUnit: item.suggestion!.unit })}
          >
            Принять
          </button>
        </p>
      )}
      <div className="characteristic__fields">
        <label>
          <span>Название на сайте</span>
          <input value={draft.title} maxLength={200} required onChange={(e) => set({ title: e.target.value })} />
          {errors.title && <span className="admin-error">{errors.title}</span>}
        </label>
        {brand ? (
          <p className="characteristic__note">Бренд всегда показывается на странице товара, в разметке и в фиде.</p>
        ) : (
          <>
            <label>
              <span>Единица</span>
              <input value={draft.shownUnit} maxLength={50} onChange={(e) => set({ shownUnit: e.target.value })} />
            </label>
            <label className="characteristic__check">
              <input type="checkbox" checked={draft.shown} onChange={(e) => set({ shown: e.target.checked })} />
              <span>Показывать на сайте</span>
            </label>
          </>
        )}
        <label>
          <span>Фильтр в разделах</span>
          <select value={draft.filter} onChange={(e) => set({ filter: e.target.value as FilterKind })}>
            {FILTER_KINDS.filter((kind) => !brand || kind !== 'range').map((kind) => (
              <option key={kind} value={kind}>
                {FILTER_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
          {errors.filter && <span className="admin-error">{errors.filter}</span>}
        </label>
        <label>
          <span>Порядок</span>
          <input
            type="number"
            step={1}
            value={draft.sort}
            onChange={(e) => set({ sort: Number.parseInt(e.target.value || '0', 10) })}
          />
        </label>
        <button type="submit" className="button">
          Сохранить
        </button>
        <span role="status">{status}</span>
      </div>
      {errors._ && <p className="admin-error">{errors._}</p>}
    </form>
  )
}

export function CharacteristicsScreen() {
  const api = useMemo(() => createCharacteristicsApi(), [])
  const [list, setList] = useState<ListedCharacteristic[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    api.list(controller.signal).then(setList, (failure: unknown) => {
      if (!controller.signal.aborted) setProblem('Не удалось загрузить характеристики. Обновите страницу.')
      return failure
    })
    return () => controller.abort()
  }, [api])

  if (problem) return <p className="admin-error">{problem}</p>
  if (!list) return <p role="status">Загружаем…</p>
  return (
    <div className="characteristics">
      <h1>Характеристики</h1>
      <p>
        Характеристики товаров из 1С, прайс-листа и редактора. Здесь задаётся, как они называются на сайте, показываются
        ли на странице товара и в фиде, и какие из них служат фильтрами в разделах. Выбор сохраняется при следующих
        обменах и загрузках прайс-листа.
      </p>
      {list.length === 0 ? (
        <p>У товаров пока нет характеристик.</p>
      ) : (
        list.map((item) => <CharacteristicForm key={item.id} item={item} api={api} onSaved={setList} />)
      )}
    </div>
  )
}
