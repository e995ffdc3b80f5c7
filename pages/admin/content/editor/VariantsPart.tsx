// The product editor's «Варианты» (docs/decisions/043-variants.md): the product's variants, each a
// form of its own (VariantForm.tsx), moved up or down, and a new one added. Each change is written at
// once through the variants API (the product page, search, the feed and the page cache follow), and
// the editor is told, so the product's price, old price and availability it shows follow too.
import { useEffect, useMemo, useState } from 'react'
import { createVariantsApi, type VariantList } from '../../../../src/admin/admin-variants'
import { variantCount } from '../../products/VariantRows'
import { VariantForm } from './VariantForm'

export function VariantsPart({ productId, onChanged }: { productId: number; onChanged: () => void }) {
  const api = useMemo(() => createVariantsApi(), [])
  const [list, setList] = useState<VariantList | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const [adding, setAdding] = useState(false)
  const [moving, setMoving] = useState(false)

  /** Counts the list's readings: each variant's form starts again from what was read */
  const [version, setVersion] = useState(0)

  useEffect(() => {
    let live = true
    api.list(productId).then(
      (answer) => live && setList(answer),
      (failure: unknown) =>
        live && setLoadError(failure instanceof Error ? failure.message : 'Не удалось загрузить варианты'),
    )
    return () => {
      live = false
    }
  }, [api, productId])

  async function reload() {
    setList(await api.list(productId))
    setVersion((v) => v + 1)
  }

  /** After a change: the list read again, then the message, so it is never announced over the list before it. */
  async function done(text: string) {
    setAdding(false)
    try {
      await reload()
    } finally {
      setStatus(text)
      onChanged()
    }
  }

  async function move(index: number, by: -1 | 1) {
    if (!list) return
    const ids = list.variants.map((v) => v.id)
    ;[ids[index], ids[index + by]] = [ids[index + by], ids[index]]
    setMoving(true)
    try {
      await api.reorder(productId, ids)
      await done('Порядок вариантов сохранён')
    } catch (failure) {
      setStatus(failure instanceof Error ? failure.message : 'Не удалось сохранить порядок')
    } finally {
      setMoving(false)
    }
  }

  const variants = list?.variants ?? []
  return (
    <section className="record-variants" aria-labelledby="record-variants-title">
      <h2 id="record-variants-title">Варианты{variants.length > 0 ? ` (${variantCount(variants.length)})` : ''}</h2>
      <p className="record-variants__hint">
        Размеры, цвета, комплектации: у каждого варианта свои артикул, цена и наличие, на странице товара покупатель
        выбирает вариант. Цена товара — самая низкая из цен вариантов.
      </p>
      {list?.fromOneC && (
        <p className="record-variants__hint">
          Товар из 1С: у вариантов из 1С название, артикул и характеристики задаёт 1С. Варианты, добавленные здесь, 1С
          не удаляет.
        </p>
      )}
      <p className="record-variants__status" role="status">
        {status}
      </p>
      {loadError && (
        <p className="admin-error" role="alert">
          {loadError}
        </p>
      )}
      {list === null && !loadError && <p>Загружаем варианты…</p>}
      {variants.length > 0 && (
        <ol className="record-variants__list">
          {variants.map((variant, i) => (
            <li key={`${variant.id}:${version}`} className="record-variants__item">
              <VariantForm
                productId={productId}
                variant={variant}
                names={list!.options}
                api={api}
                onDone={done}
                moving={moving}
                onMove={{
                  up: i > 0 ? () => void move(i, -1) : undefined,
                  down: i < variants.length - 1 ? () => void move(i, 1) : undefined,
                }}
              />
            </li>
          ))}
        </ol>
      )}
      {list &&
        (adding ? (
          <div className="record-variants__item">
            <VariantForm
              productId={productId}
              variant={null}
              names={list.options}
              api={api}
              onDone={done}
              onCancel={() => setAdding(false)}
            />
          </div>
        ) : (
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Добавить вариант
          </button>
        ))}
    </section>
  )
}
