// The responsive variants of an upload (docs/decisions/015-responsive-images.md): WebP and AVIF at
// the widths its name allows, made once next to the original. The write API makes them all before
// it answers; a variant missing later (media restored from a backup, a failed encode) is made on
// its first request, one encode per path however many visitors ask at once.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import sharp, { type Sharp } from 'sharp'
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

// Measured in CPU time (decision 015): AVIF effort 1 costs a quarter of effort 2 and a tenth of
// sharp's default 4 for files within 1 % of their size; WebP effort 2 half of the default 4.
const ENCODE: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1 }),
  webp: (image) => image.webp({ quality: 75, effort: 2 }),
}

const SOURCE_EXTENSIONS = ['jpg', 'png', 'webp', 'avif']

async function writeAtomically(target: string, make: (temp: string) => Promise<unknown>): Promise<void> {
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await make(temp)
    await fs.promises.rename(temp, target) // whole or not at all, also with two workers racing
  } catch (error) {
    await fs.promises.rm(temp, { force: true })
    throw error
  }
}

/** The upright pixels of the source, decoded once, no wider than the widest variant. */
async function decode(input: Buffer | string, upload: SizedUpload) {
  const widths = variantWidths(upload.width)
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
  target: string,
): Promise<void> {
  const { data, info } = decoded
  await writeAtomically(target, (temp) =>
    ENCODE[format](
      sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).resize({ width }),
    ).toFile(temp),
  )
}

/**
 * Makes every variant of a stored upload that is not on disk yet (all of them for a new upload).
 * A name without a size (legacy upload) has none.
 */
export async function makeVariants(mediaDir: string, relativePath: string, bytes?: Buffer): Promise<void> {
  const upload = parseSizedUpload(relativePath)
  if (!upload) return
  const missing = variantWidths(upload.width)
    .flatMap((width) => VARIANT_FORMATS.map((format) => ({ width, format })))
    .map((v) => ({ ...v, target: path.join(mediaDir, variantPath(upload, v.width, v.format)) }))
    .filter((v) => !fs.existsSync(v.target))
  if (missing.length === 0) return
  const decoded = await decode(bytes ?? path.join(mediaDir, relativePath), upload)
  for (const v of missing) await encode(decoded, v.width, v.format, v.target) // one core stays for visitors
}

const inFlight = new Map<string, Promise<boolean>>()

/**
 * Whether the variant at this media path exists, making it first when its upload is stored and
 * the name is one the upload has. Any other name answers false (and is then a 404).
 */
export function ensureVariant(mediaDir: string, pathname: string): Promise<boolean> {
  const variant = parseVariantPath(pathname)
  if (!variant) return Promise.resolve(false)
  const target = path.join(mediaDir, pathname)
  if (fs.existsSync(target)) return Promise.resolve(true)
  let pending = inFlight.get(target)
  if (!pending) {
    pending = (async () => {
      const source = SOURCE_EXTENSIONS.map((ext) => path.join(mediaDir, `${variant.stem}.${ext}`)).find((file) =>
        fs.existsSync(file),
      )
      if (!source) return false
      await encode(await decode(source, variant), variant.variantWidth, variant.format, target)
      return true
    })().finally(() => inFlight.delete(target))
    inFlight.set(target, pending)
  }
  return pending
}
