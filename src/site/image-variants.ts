// Responsive variants of an uploaded image (docs/decisions/015-responsive-images.md). An upload's
// stored name carries its size, `uploads/<hash>.<W>x<H>.<ext>`, so the page can list its variants
// without asking the database; each variant is `uploads/<hash>.<W>x<H>-<w>.<webp|avif>`. The hash
// is 16 hex digits for uploads since decision 045 (every card's URLs carry it), 32 before; both
// names are served and listed alike.

/** Widths made of every upload (never wider than the original; its own width when under the top). */
export const VARIANT_LADDER: readonly number[] = Object.freeze([320, 640, 960, 1280, 1920])

export type VariantFormat = 'avif' | 'webp'

/**
 * The formats every upload's variants are made in: a page lists the AVIF ones in its `<source>` and
 * one WebP variant as the `<img>` fallback of a browser without AVIF (src/components/Image.tsx).
 */
export const VARIANT_FORMATS: readonly VariantFormat[] = Object.freeze(['avif', 'webp'])

export interface SizedUpload {
  /** `uploads/<hash>.<W>x<H>`: the name without its extension */
  readonly stem: string
  readonly width: number
  readonly height: number
}

export interface VariantName extends SizedUpload {
  readonly variantWidth: number
  readonly format: VariantFormat
}

/**
 * Hex digits of an upload's content hash in the names given now: 64 bits, which no shop's uploads
 * come near colliding in, and half the incompressible bytes a page of cards carries per picture
 * (docs/decisions/045-one-call-and-light-cards.md). Uploads named before keep their 32.
 */
export const UPLOAD_HASH_DIGITS = 16
/** The hash's length in the names given before decision 045 */
export const LONG_UPLOAD_HASH_DIGITS = 32

const SIZED = /^(uploads\/[0-9a-f]{16}(?:[0-9a-f]{16})?\.([1-9][0-9]{0,4})x([1-9][0-9]{0,4}))\.(jpg|png|webp|avif)$/
const VARIANT =
  /^(uploads\/[0-9a-f]{16}(?:[0-9a-f]{16})?\.([1-9][0-9]{0,4})x([1-9][0-9]{0,4}))-([1-9][0-9]{0,4})\.(webp|avif)$/

/** The stored name of an upload of this content hash, extension and size. */
export function sizedUploadPath(hash: string, width: number, height: number, extension: string): string {
  return `uploads/${hash}.${width}x${height}.${extension}`
}

/** The size a stored upload's name carries, or null (legacy `uploads/<hash>.<ext>`, demo SVG, URL). */
export function parseSizedUpload(image: string): SizedUpload | null {
  const match = SIZED.exec(image.replace(/^\/+/, ''))
  if (!match) return null
  return { stem: match[1], width: Number(match[2]), height: Number(match[3]) }
}

/** The widths of the variants an upload of this width has, ascending. */
export function variantWidths(width: number): number[] {
  const widths = VARIANT_LADDER.filter((w) => w < width)
  if (width <= VARIANT_LADDER[VARIANT_LADDER.length - 1]) widths.push(width)
  return widths
}

/** The media path of one variant. */
export function variantPath(upload: SizedUpload, width: number, format: VariantFormat): string {
  return `${upload.stem}-${width}.${format}`
}

/** A variant path that names a width this upload really has, or null for anything else. */
export function parseVariantPath(pathname: string): VariantName | null {
  const match = VARIANT.exec(pathname)
  if (!match) return null
  const width = Number(match[2])
  const variantWidth = Number(match[4])
  if (!variantWidths(width).includes(variantWidth)) return null
  return { stem: match[1], width, height: Number(match[3]), variantWidth, format: match[5] as VariantFormat }
}
