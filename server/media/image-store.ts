// Uploaded images: judged by their bytes (never their name or declared type), limited in size and
// pixel count, named `uploads/<hash>.<W>x<H>.<ext>` by their content (16 hex digits of its SHA-256),
// so the same bytes are stored once and /media/ can serve them with immutable caching
// (store-upload.ts stores them).
// SVG is refused: it is a document that can carry script, not a picture.
import { createHash } from 'node:crypto'
import type { Metadata } from 'sharp'
import { HttpError } from '../http/http-error'
import { LONG_UPLOAD_HASH_DIGITS, sizedUploadPath, UPLOAD_HASH_DIGITS } from '../../src/site/image-variants'
import { loadSharp } from './sharp'

export const IMAGE_LIMITS = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
})

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif'

const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' }

export interface CheckedImage {
  readonly bytes: Buffer
  readonly format: ImageFormat
  /** As shown: EXIF orientation applied */
  readonly width: number
  readonly height: number
  /** Path under the media folder: `uploads/<hash>.<W>x<H>.<ext>` (the size lets pages list its variants) */
  readonly relativePath: string
}

/** The format the first bytes announce, or null for anything that is not JPEG, PNG, WebP or AVIF. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1')
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  if (bytes.length >= 16 && ascii(4, 8) === 'ftyp') {
    // ISO-BMFF: the major brand and the compatible brands that follow name the format.
    const boxSize = Math.min(bytes.length, Buffer.from(bytes).readUInt32BE(0) || 0, 256)
    for (let offset = 8; offset + 4 <= boxSize; offset += 4) {
      if (offset === 12) continue // minor version
      const brand = ascii(offset, offset + 4)
      if (brand === 'avif' || brand === 'avis') return 'avif'
    }
  }
  return null
}

const UNSUPPORTED = 'Неподдерживаемый формат файла: загрузите изображение JPEG, PNG, WebP или AVIF'

/** 413 for a file past the image size limit: checked before such a file is read whole. */
export function checkImageSize(size: number, limits = IMAGE_LIMITS): void {
  if (size > limits.maxBytes) {
    throw new HttpError(
      413,
      `Файл слишком большой: не более ${Math.floor(limits.maxBytes / 1024 / 1024)} МБ`,
      'file_too_large',
    )
  }
}

/**
 * Checks one uploaded file and names it by its content. Throws HttpError: 413 over maxBytes,
 * 415 for anything but JPEG, PNG, WebP or AVIF (by signature), 400 over maxPixels or unreadable.
 * `isStored`: whether a file is stored under a name already; a file stored under this one's name
 * (or under its 32-digit name of before decision 045, which it then keeps) was decoded whole when
 * it was stored, so its pixels are not decoded again (a 1C exchange sends every picture each time).
 */
export async function checkImage(
  bytes: Buffer,
  limits = IMAGE_LIMITS,
  isStored?: (relativePath: string) => Promise<boolean>,
): Promise<CheckedImage> {
  checkImageSize(bytes.length, limits)
  if (bytes.length === 0) throw new HttpError(400, 'Файл пустой', 'empty_file')
  const format = sniffImageFormat(bytes)
  if (!format) throw new HttpError(415, UNSUPPORTED, 'unsupported_image')
  const sharp = await loadSharp()
  let metadata: Metadata
  try {
    // Only the header is read here; the pixel limit is checked below with a message of its own.
    metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata()
  } catch {
    throw new HttpError(400, 'Не удалось прочитать изображение: файл повреждён', 'broken_image')
  }
  const sharpFormat = metadata.format === 'heif' ? 'avif' : metadata.format
  if (sharpFormat !== format) throw new HttpError(415, UNSUPPORTED, 'unsupported_image')
  const width = metadata.width ?? 0
  const height = metadata.height ?? 0
  if (width <= 0 || height <= 0)
    throw new HttpError(400, 'Не удалось прочитать изображение: файл повреждён', 'broken_image')
  if (width * height > limits.maxPixels) {
    throw new HttpError(
      400,
      `Слишком большое изображение: не более ${Math.round(limits.maxPixels / 1_000_000)} мегапикселей`,
      'too_many_pixels',
    )
  }
  const hash = createHash('sha256').update(bytes).digest('hex')
  // A phone's photo may be stored sideways with an EXIF orientation: browsers and the variants show it turned.
  const shown = metadata.autoOrient
  const named = (digits: number): CheckedImage => ({
    bytes,
    format,
    width: shown.width,
    height: shown.height,
    relativePath: sizedUploadPath(hash.slice(0, digits), shown.width, shown.height, EXTENSIONS[format]),
  })
  const image = named(UPLOAD_HASH_DIGITS)
  if (isStored) {
    // The same bytes stored under the longer name of before decision 045 keep that name: a 1C
    // exchange that sends every picture again changes no product and makes no variant anew.
    const before = named(LONG_UPLOAD_HASH_DIGITS)
    if (await isStored(before.relativePath)) return before
    if (await isStored(image.relativePath)) return image
  }
  // Decoding the pixels proves the file is a whole image; limitInputPixels guards the decoder too.
  try {
    await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).resize(1, 1).raw().toBuffer()
  } catch {
    throw new HttpError(400, 'Не удалось прочитать изображение: файл повреждён', 'broken_image')
  }
  return image
}
