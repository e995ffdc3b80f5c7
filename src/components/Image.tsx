import { useMediaUrl } from './media-context'
import { mediaSrc } from '../site/url'
import { parseSizedUpload, variantPath, variantWidths, type SizedUpload } from '../site/image-variants'

/**
 * Width ÷ height of each box an image is drawn in. Each has a class of its own (layout.css,
 * `.image--<shape>`) giving its aspect-ratio: the page's CSP allows no style attribute
 * (docs/decisions/014-csp.md).
 */
export const IMAGE_SHAPES = { square: 1, slide: 1200 / 500, logo: 258 / 102 } as const
export type ImageShape = keyof typeof IMAGE_SHAPES

interface ImageProps {
  /** Stored media path (or absolute URL); null renders the designed placeholder (src/site/no-photo.ts) of the same size */
  src: string | null
  alt: string
  /** The box's shape (IMAGE_SHAPES): square by default, the slider's wide slide, or the logo. */
  shape?: ImageShape
  /** Intrinsic width attribute; height follows from the ratio so nothing shifts while loading */
  width?: number
  /** The first visible image loads eagerly with high priority; others lazily */
  eager?: boolean
  className?: string
  /** How wide the box is drawn, for choosing a variant; default: `width` px, or the viewport if narrower */
  sizes?: string
  /**
   * The widest variant worth listing: one the box is never drawn wide enough to choose (a card of
   * 280 CSS px at 3× asks for 840 px) only lengthens every page's HTML. Default: all of them.
   */
  widest?: number
  /**
   * The narrowest variant worth listing: narrower ones are never chosen for this box (a card takes
   * the 640 px variant on phones and desktops alike, decision 045). Default: all of them. An
   * upload with no variant this wide lists its widest one.
   */
  narrowest?: number
}

/** The variant widths worth listing for this box, ascending: at least one, the widest when none is `narrowest` wide. */
function listedWidths(upload: SizedUpload, narrowest: number, widest: number): number[] {
  const widths = variantWidths(upload.width).filter((w, i) => i === 0 || w <= widest)
  const wide = widths.filter((w) => w >= narrowest)
  return wide.length > 0 ? wide : widths.slice(-1)
}

/**
 * The AVIF candidates. The box crops (object-fit: cover) an image wider than itself, so its
 * height fills the box and more of its width is drawn: the declared width is scaled down by that
 * much, and the browser picks a variant sharp enough for the part it shows.
 */
function srcSet(mediaUrl: string, upload: SizedUpload, widths: number[], boxRatio: number) {
  if (widths.length === 1) return mediaSrc(mediaUrl, variantPath(upload, widths[0], 'avif'))
  const scale = Math.min(1, boxRatio / (upload.width / upload.height))
  return widths
    .map((w) => `${mediaSrc(mediaUrl, variantPath(upload, w, 'avif'))} ${Math.max(1, Math.round(w * scale))}w`)
    .join(', ')
}

/**
 * The picture of a browser that cannot decode AVIF (Safari before 16.4, Chromium-based browsers
 * not updated since 2020): one WebP variant, the narrowest listed one at least as wide as the
 * box's intrinsic width, so such a browser loads tens of KB where the original is up to megabytes.
 */
function fallbackWidth(widths: number[], boxWidth: number): number {
  return widths.find((w) => w >= boxWidth) ?? widths[widths.length - 1]
}

/**
 * The one image component: media host + path prefix, width/height from the aspect ratio, lazy by
 * default. An upload whose name carries its size is a `<picture>` of its AVIF variants with one
 * WebP variant as the fallback (docs/decisions/015-responsive-images.md, 045).
 * @example <Image src={product.image} alt={product.title} width={600} sizes="50vw" />
 */
export function Image(props: ImageProps) {
  const { src, alt, shape = 'square', width = 600, eager = false, className, sizes } = props
  const { narrowest = 0, widest = Infinity } = props
  const mediaUrl = useMediaUrl()
  const height = Math.round(width / IMAGE_SHAPES[shape])
  // The box keeps its ratio before and after loading (object-fit crops the image to it), from its
  // shape's class: no style attribute (the CSP allows none), no style object per image.
  const classes = ['image', `image--${shape}`, className].filter(Boolean).join(' ')
  if (!src) {
    return (
      // An empty alt means decorative, as on <img>: then the placeholder is hidden from assistive
      // technology rather than an unnamed image.
      <span
        className={`${classes} image--empty`}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      >
        {shape === 'square' && 'Фото скоро появится'}
      </span>
    )
  }
  const upload = parseSizedUpload(src)
  const widths = upload ? listedWidths(upload, narrowest, widest) : []
  const img = (
    <img
      className={classes}
      src={
        upload ? mediaSrc(mediaUrl, variantPath(upload, fallbackWidth(widths, width), 'webp')) : mediaSrc(mediaUrl, src)
      }
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      // A lazy image is decoded off the main thread anyway (the default, `auto`): no attribute.
      decoding={eager ? 'sync' : undefined}
    />
  )
  if (!upload) return img
  return (
    <picture className="image-set">
      <source
        type="image/avif"
        srcSet={srcSet(mediaUrl, upload, widths, width / height)}
        // One candidate leaves the browser nothing to choose: no width for it, no sizes.
        sizes={widths.length > 1 ? (sizes ?? `(max-width: ${width}px) 100vw, ${width}px`) : undefined}
      />
      {img}
    </picture>
  )
}
