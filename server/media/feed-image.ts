// The picture of a product in the Yandex feed: a JPEG (Yandex takes JPEG and PNG, not WebP, AVIF or
// SVG) of at least 600 px a side (Товары' rule), the whole image on white in a 1000×1000 square,
// made from the stored image on its first request, once (make-once.ts), and kept in the media store
// as `feed/<source>.jpg`, in the folder or the bucket alike (docs/decisions/029-price-list-and-feeds.md).
import { loadSharp } from './sharp'
import { makeOnce, type MakeContext } from './make-once'
import { isImageSource } from './image-source'

export const FEED_IMAGE_SIZE = 1000

/** The suffix of a feed picture's URL (src/site/paths.ts feedImagePath): it names the JPEG it serves. */
const JPEG_SUFFIX = '.jpg'

/**
 * What a `/feed-image/` path names: the source image of `<source>.jpg`, or, for a URL of a feed
 * fetched before the suffix (`/feed-image/<source>`, issue #36), the source to redirect to its
 * `.jpg` URL. Null for any other name: a 404 before any work.
 */
export function parseFeedImagePath(name: string): { source: string; current: boolean } | null {
  // An original's name has one extension (image-source.ts): `<source>.jpg` is never an original.
  if (name.endsWith(JPEG_SUFFIX) && isImageSource(name.slice(0, -JPEG_SUFFIX.length))) {
    return { source: name.slice(0, -JPEG_SUFFIX.length), current: true }
  }
  return isImageSource(name) ? { source: name, current: false } : null
}

/** Where the feed copy of a stored image is kept, or null for a name that is not an original image
 * (image-source.ts): then it is a 404 before any work. */
export function feedImageKey(source: string): string | null {
  return isImageSource(source) ? `feed/${source.replace('/', '-')}.jpg` : null
}

export async function renderFeedImage(input: Buffer): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(input, { density: 300, limitInputPixels: 40_000_000 })
    .autoOrient()
    .resize(FEED_IMAGE_SIZE, FEED_IMAGE_SIZE, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer()
}

/** The key of the stored feed copy of `source`, made first if needed; null when there is no such image. */
export async function ensureFeedImage(context: MakeContext, source: string): Promise<string | null> {
  const key = feedImageKey(source)
  if (key === null) return null
  const made = await makeOnce(context, key, {
    source: async () => ((await context.storage.size(source)) === null ? null : source),
    render: renderFeedImage,
  })
  return made ? key : null
}
