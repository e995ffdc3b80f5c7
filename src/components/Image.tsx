import { useMediaUrl } from './media-context'
import { mediaSrc } from '../site/url'
import {
  parseSizedUpload,
  VARIANT_FORMATS,
  variantPath,
  variantWidths,
  type SizedUpload,
  type VariantFormat,
} from '../site/image-variants'

interface ImageProps {
  /** Stored media path (or absolute URL); null renders a neutral placeholder of the same size */
  src: string | null
  alt: string
  /** Width ÷ height of the box; default 1 (square). The logo uses 258 / 102. */
  ratio?: number
  /** Intrinsic width attribute; height follows from the ratio so nothing shifts while loading */
  width?: number
  /** The first visible image loads eagerly with high priority; others lazily */
  eager?: boolean
  className?: string
  /** How wide the box is drawn, for choosing a variant; default: `width` px, or the viewport if narrower */
  sizes?: string
}

/**
 * The candidates of one format. The box crops (object-fit: cover) an image wider than itself, so
 * its height fills the box and more of its width is drawn: the declared width is scaled down by
 * that much, and the browser picks a variant sharp enough for the part it shows.
 */
function srcSet(mediaUrl: string, upload: SizedUpload, format: VariantFormat, boxRatio: number): string {
  const scale = Math.min(1, boxRatio / (upload.width / upload.height))
  return variantWidths(upload.width)
    .map((w) => `${mediaSrc(mediaUrl, variantPath(upload, w, format))} ${Math.max(1, Math.round(w * scale))}w`)
    .join(', ')
}

/**
 * The one image component: media host + path prefix, width/height from the aspect ratio, lazy by
 * default. An upload whose name carries its size is a `<picture>` of its AVIF and WebP variants
 * with the original as the fallback (docs/decisions/015-responsive-images.md).
 * @example <Image src={product.image} alt={product.title} width={600} sizes="50vw" />
 */
export function Image({ src, alt, ratio = 1, width = 600, eager = false, className, sizes }: ImageProps) {
  const mediaUrl = useMediaUrl()
  const height = Math.round(width / ratio)
  // The box keeps its ratio before and after loading (object-fit crops the image to it). Square
  // boxes (cards, icons: most images of a page) take it from a class; a style object per image
  // was a tenth of an uncached home page's allocations.
  const square = width === height
  const classes = ['image', square && 'image--square', className].filter(Boolean).join(' ')
  const box = square ? undefined : { aspectRatio: `${width} / ${height}` }
  if (!src) {
    return (
      // An empty alt means decorative, as on <img>: then the placeholder is hidden from assistive
      // technology rather than an unnamed image.
      <span
        className={`${classes} image--empty`}
        style={box}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      />
    )
  }
  const img = (
    <img
      className={classes}
      src={mediaSrc(mediaUrl, src)}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding={eager ? 'sync' : 'async'}
      style={box}
    />
  )
  const upload = parseSizedUpload(src)
  if (!upload) return img
  const slot = sizes ?? `(max-width: ${width}px) 100vw, ${width}px`
  return (
    <picture className="image-set">
      {VARIANT_FORMATS.map((format) => (
        <source
          key={format}
          type={`image/${format}`}
          srcSet={srcSet(mediaUrl, upload, format, width / height)}
          sizes={slot}
        />
      ))}
      {img}
    </picture>
  )
}

export const LOGO_RATIO = 258 / 102
