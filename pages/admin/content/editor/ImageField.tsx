import { useEffect, useState } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { mediaSrc } from '../../../../src/site/url'
import { fieldAria } from '../../../../src/components/form/field-value'
import { FieldShell } from '../../../../src/components/form/FieldShell'
import type { ImageValue } from './record-draft'

const HINT = 'JPEG, PNG, WebP или AVIF'

interface ImageFieldProps {
  id: string
  label: string
  value: ImageValue
  onChange: (value: ImageValue) => void
  error?: string
  /** The record may have no image (a required one can only be replaced). */
  optional?: boolean
  /** Why it cannot be changed here (1C's picture, decision 044): the preview and the reason only */
  readOnly?: string
}

/**
 * An image chosen for upload with its preview; it is sent with the record's next save, where the
 * API checks its bytes (JPEG, PNG, WebP, AVIF; size) and answers a Russian error for this field.
 */
export function ImageField({ id, label, value, onChange, error, optional = true, readOnly }: ImageFieldProps) {
  const { publicSettings } = usePageContext()
  const preview = usePreview(value, publicSettings?.mediaUrl ?? '')
  const hint = readOnly ?? HINT
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      {preview && <img className="image-field__preview" src={preview} alt={`Сейчас: ${label.toLowerCase()}`} />}
      <div className="image-field__row">
        <input
          id={id}
          className="image-field__input"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif"
          disabled={readOnly !== undefined}
          {...fieldAria(id, { hint, error })}
          onChange={(event) => {
            const file = event.target.files?.[0]
            if (file) onChange(file)
          }}
        />
        {optional && value !== null && readOnly === undefined && (
          <button type="button" className="button button--quiet button--small" onClick={() => onChange(null)}>
            Убрать изображение
          </button>
        )}
      </div>
    </FieldShell>
  )
}

/** A stored image's URL, or a chosen file read as a data: URL (the CSP allows data: images, not blob:). */
function usePreview(value: ImageValue, mediaUrl: string): string | null {
  const [fileUrl, setFileUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!(value instanceof File)) return
    const reader = new FileReader()
    reader.onload = () => setFileUrl(typeof reader.result === 'string' ? reader.result : null)
    reader.readAsDataURL(value)
    return () => reader.abort()
  }, [value])
  if (value === null) return null
  if (typeof value === 'string') return mediaSrc(mediaUrl, value)
  return fileUrl
}
