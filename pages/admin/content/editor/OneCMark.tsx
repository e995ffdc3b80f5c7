// The editor's mark of a product from 1C (docs/decisions/044-onec-owned-fields.md): «Из 1С» with the
// fields the exchange overwrites now, and which of them a draft changed, so the save asks first;
// and whether its variants set its price and availability (decision 043: no fields of its own then).
import { useEffect, useMemo, useState } from 'react'
import { createProductsApi, type ProductMark } from '../../../../src/admin/admin-products'
import { overwrittenText, type OneCField } from '../../../../src/catalogue/one-c-fields'
import type { RecordDraft } from './record-draft'

/**
 * A product's mark: null while unknown (and for a record that is no product), else whether it comes
 * from 1C with the fields 1C overwrites, and how many variants set its price and availability. Read
 * again when `version` changes (after a variant was added or removed).
 */
export function useProductMark(draft: RecordDraft | null, version = 0): ProductMark | null {
  const api = useMemo(() => createProductsApi(), [])
  const [mark, setMark] = useState<{ id: number; mark: ProductMark } | null>(null)
  const id = draft?.typeId === 'product' ? draft.id : null
  useEffect(() => {
    if (id === null) return
    let live = true
    // Without the mark the editor saves as before: the exchange's rules and the API's refusals still hold.
    api.mark(id).then(
      (answer) => live && setMark({ id, mark: answer }),
      () => {},
    )
    return () => {
      live = false
    }
  }, [api, id, version])
  return mark && mark.id === id ? mark.mark : null
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
