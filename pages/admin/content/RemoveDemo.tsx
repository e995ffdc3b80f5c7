import { useEffect, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import type { DemoRemoval } from '../../../src/admin/admin-api'
import { pluralRu } from '../../../src/validation/plural-ru'
import { useAdminApi } from '../layout/admin-context'
import { AdminError } from '../layout/AdminError'
import { Confirm } from '../layout/Confirm'

const PRODUCTS = { one: 'товар', few: 'товара', many: 'товаров', other: 'товара' } as const

function summary(removed: DemoRemoval): string {
  const parts = [
    `товаров ${removed.products}`,
    `разделов ${removed.sections}`,
    `слайдов ${removed.slides}`,
    `преимуществ ${removed.advantages}`,
  ]
  const kept =
    removed.kept.length > 0
      ? ` Остались разделы с вашими записями: ${removed.kept.map((t) => `«${t}»`).join(', ')}.`
      : ''
  return `Демо-магазин убран: ${parts.join(', ')}.${kept}`
}

/**
 * «Убрать демо-магазин» (issue 45): shown while the demo shop's products are on the site; one
 * confirmed action removes the demo's sections, products, slides and advantages, and the tree reloads.
 */
export function RemoveDemo({ onRemoved }: { onRemoved: () => void }) {
  const api = useAdminApi()
  const [left, setLeft] = useState(0)
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    api.demoProductsLeft(controller.signal).then(setLeft, () => setLeft(0))
    return () => controller.abort()
  }, [api])

  async function remove() {
    setBusy(true)
    setError(null)
    try {
      const removed = await api.removeDemoShop()
      setDone(summary(removed))
      setLeft(0)
      onRemoved()
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось убрать демо-магазин')
    } finally {
      setAsking(false)
      setBusy(false)
    }
  }

  if (done)
    return (
      <p role="status" className="demo-shop demo-shop--done">
        {done}
      </p>
    )
  if (left === 0) return null
  return (
    <div className="demo-shop">
      <p>
        На сайте демо-магазин: {left} {pluralRu(left, PRODUCTS)}-примеров, разделы, слайды и преимущества главной.
      </p>
      {asking ? (
        <Confirm
          className="demo-shop__confirm"
          question="Убрать демо-магазин? Его разделы, товары, слайды и преимущества будут удалены; главная страница, документы и ваши записи останутся. Адреса демо-товаров будут отвечать «страница удалена»."
          confirmLabel="Да, убрать"
          busyLabel="Убираем…"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
          Убрать демо-магазин
        </button>
      )}
      <AdminError message={error} />
    </div>
  )
}
