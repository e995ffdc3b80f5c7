import { useMediaUrl } from './media-context'
import { mediaSrc } from '../site/url'

interface ImageProps {
  /** Stored media path (or absolute URL); null renders a neutral placeholder of the same size */
  src: string | null
  alt: string
  /** Width ÷ height; default 1 (square). The logo uses 258 / 102. */
  ratio?: number
  /** Intrinsic width attribute; height follows from the ratio so nothing shifts while loading */
  width?: number
  /** The first visible image loads eagerly with high priority; others lazily */
  eager?: boolean
  className?: string
  sizes?: string
}

/**
 * The one image component: media host + path prefix, width/height from the aspect ratio,
 * lazy by default.
 * @example <Image src={product.image} alt={product.title} width={600} />
 */
export function Image({ src, alt, ratio = 1, width = 600, eager = false, className, sizes }: ImageProps) {
  const mediaUrl = useMediaUrl()
  const height = Math.round(width / ratio)
  const classes = ['image', className].filter(Boolean).join(' ')
  if (!src) {
    return (
      <span
        className={`${classes} image--empty`}
        style={{ aspectRatio: `${width} / ${height}` }}
        role="img"
        aria-label={alt}
      />
    )
  }
  return (
    <img
      className={classes}
      src={mediaSrc(mediaUrl, src)}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding={eager ? 'sync' : 'async'}
      sizes={sizes}
      style={{ aspectRatio: `${width} / ${height}` }}
    />
  )
}

export const LOGO_RATIO = 258 / 102
