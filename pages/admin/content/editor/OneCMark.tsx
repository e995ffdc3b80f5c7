// The editor's mark of a product from 1C (docs/decisions/044-onec-owned-fields.md): «Из 1С» with the
// fields the exchange overwrites now, and which of them a draft changed, so the save asks first.
import { useEffect, useMemo, useState } from 'react'
import { createProductsApi } from '../../../../src/admin/admin-products'
import { overwrittenText, type OneCField } from '../../../../src/catalogue/one-c-fields'
import type { RecordDraft } from './record-draft'

/** A product's mark: null while unknown or for the site's own product, else the fields 1C overwrites. */
export function useOneCMark(draft: RecordDraft | null): readonly OneCField[] | null {
  const api = useMemo(() => createProductsApi(), [])
  const [mark, setMark] = useState<{ id: number; oneC: readonly OneCField[] | null } | null>(null)
  const id = draft?.typeId === 'product' ? draft.id : null
  useEffect(() => {
    if (id === null) return
    let live = true
    // Without the mark the editor saves as before: the exchange's own rules still hold.
    api.oneC(id).then(
      (oneC) => live && setMark({ id, oneC }),
      () => {},
    )
    return () => {
      live = false
    }
  }, [api, id])
  return mark && mark.id === id ? mark.oneC : null
}

export function OneCMark({ overwritten }: { overwritten: readonly OneCField[] }) {
  return (
    <p className="record-editor__one-c">
      <span className="admin-badge record-editor__one-c-badge">Из 1С</span> {overwrittenText(overwritten)}
    </p>
  )
}

const imagesOf = (draft: RecordDraft) => draft.images.map((image) => image.image)

/** The fields 1C may write that `after` changed from `before`. */
export function changedOneCFields(before: RecordDraft, after: RecordDraft): OneCField[] {
  const changed: OneCField[] = []
  const a = before.product
  const b = after.product
  if (a.price.trim() !== b.price.trim() || a.oldPrice.trim() !== b.oldPrice.trim()) changed.push('price')
  if (a.availability !== b.availability) changed.push('stock')
  if (before.title.trim() !== after.title.trim()) changed.push('title')
  if (a.description.trim() !== b.description.trim()) changed.push('description')
  const images = [imagesOf(before), imagesOf(after)]
  if (images[0].length !== images[1].length || images[0].some((image, i) => image !== images[1][i]))
    changed.push('images')
  return changed
}
