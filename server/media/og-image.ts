// The share preview of a stored image (og:image): a 1200×630 JPEG on white, made from the image on
// its first request, once (make-once.ts), and kept in the media store as `og/<source>.jpg`.
import { loadSharp } from './sharp'
import { OG_IMAGE_SIZE } from '../../src/site/head-tags'
import { makeOnce, type MakeContext } from './make-once'
import { isImageSource } from './image-source'

/** Where the share image of a stored image is kept, or null for a name that is not an original image
 * (image-source.ts): then it is a 404 before any work. */
export function ogImageKey(source: string): string | null {
  return isImageSource(source) ? `og/${source.replace('/', '-')}.jpg` : null
}

/** Renders a share image: the whole picture, letterboxed on white (SVG drawn at 300 dpi). */
export async function renderOgImage(input: Buffer): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(input, { density: 300 })
    .resize(OG_IMAGE_SIZE.width, OG_IMAGE_SIZE.height, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer()
}

/** The key of the stored share image of `source`, made first if needed; null when there is no such image. */
export async function ensureOgImage(context: MakeContext, source: string): Promise<string | null> {
  const key = ogImageKey(source)
  if (key === null) return null
  const made = await makeOnce(context, key, {
    source: async () => ((await context.storage.size(source)) === null ? null : source),
    render: renderOgImage,
  })
  return made ? key : null
}
