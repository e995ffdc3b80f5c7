// The responsive variants of an upload (docs/decisions/015-responsive-images.md): WebP and AVIF at
// the widths its name allows, stored next to the original. The write API makes them all before
// it answers; a variant missing later (media restored from a backup, a failed encode, a bucket
// copied without them) is made on its first request, once (make-once.ts).
import type { Sharp } from 'sharp'
import {
  parseSizedUpload,
  parseVariantPath,
  VARIANT_FORMATS,
  variantPath,
  variantWidths,
  type SizedUpload,
  type VariantFormat,
} from '../../src/site/image-variants'
import { IMAGE_LIMITS } from './image-store'
import { makeOnce, type MakeContext } from './make-once'
import { loadSharp } from './sharp'
import type { MediaStorage } from './storage/media-storage'

// Measured in CPU time (decision 015): AVIF effort 1 costs a quarter of effort 2 and a tenth of
// sharp's default 4 for files within 1 % of their size; WebP effort 2 half of the default 4.
const ENCODE: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1 }),
  webp: (image) => image.webp({ quality: 75, effort: 2 }),
}

const SOURCE_EXTENSIONS = ['jpg', 'png', 'webp', 'avif']

/** The upright pixels of the source, decoded once, no wider than the widest variant. */
async function decode(input: Buffer, upload: SizedUpload) {
  const widths = variantWidths(upload.width)
  const sharp = await loadSharp()
  return sharp(input, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error' })
    .autoOrient()
    .resize({ width: widths[widths.length - 1], withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
}

async function encode(
  decoded: Awaited<ReturnType<typeof decode>>,
  width: number,
  format: VariantFormat,
): Promise<Buffer> {
  const sharp = await loadSharp()
  const { data, info } = decoded
  return ENCODE[format](
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).resize({ width }),
  ).toBuffer()
}

/**
 * Makes every variant of a stored upload that is not stored yet (all of them for a new upload).
 * A name without a size (legacy upload) has none.
 */
export async function makeVariants(storage: MediaStorage, relativePath: string, bytes: Buffer): Promise<void> {
  const upload = parseSizedUpload(relativePath)
  if (!upload) return
  const variants = variantWidths(upload.width).flatMap((width) =>
    VARIANT_FORMATS.map((format) => ({ width, format, key: variantPath(upload, width, format) })),
  )
  const stored = await Promise.all(variants.map((v) => storage.size(v.key)))
  const missing = variants.filter((_v, i) => stored[i] === null)
  if (missing.length === 0) return
  const decoded = await decode(bytes, upload)
  for (const v of missing) await storage.write(v.key, await encode(decoded, v.width, v.format)) // one core stays for visitors
}

/**
 * Whether the variant at this media path is stored, making it first when its upload is stored and
 * the name is one the upload has. Any other name answers false (and is then a 404).
 */
export async function ensureVariant(context: MakeContext, pathname: string): Promise<boolean> {
  const variant = parseVariantPath(pathname)
  if (!variant) return false
  return makeOnce(context, pathname, {
    async source() {
      for (const ext of SOURCE_EXTENSIONS) {
        const key = `${variant.stem}.${ext}`
        if ((await context.storage.size(key)) !== null) return key
      }
      return null
    },
    async render(input) {
      return encode(await decode(input, variant), variant.variantWidth, variant.format)
    },
  })
}
