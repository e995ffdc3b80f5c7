import { useRef, useState, type KeyboardEvent } from 'react'
import { Image } from './Image'
import './snap-track.css'
import './gallery.css'

export interface GalleryProps {
  /** The pictures in order, the first the main one */
  images: { image: string; alt: string | null }[]
  /** The product's name: the alt of a picture that has none */
  title: string
  /** How wide the picture is drawn (the `sizes` of its srcset) */
  sizes: string
}

/**
 * A product's gallery (decision 025): a scroll-snap strip that a finger swipes and that scrolls
 * without JavaScript; as an island, the arrow keys (and Home/End) move one picture on the focused
 * strip, and the thumbnails are buttons. Every box has its width and height: nothing shifts.
 */
export function Gallery({ images, title, sizes }: GalleryProps) {
  const track = useRef<HTMLDivElement>(null)
  const [current, setCurrent] = useState(0)
  const count = images.length
  const go = (index: number) => {
    const el = track.current
    if (!el || count === 0) return
    const next = Math.min(count - 1, Math.max(0, index))
    el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' })
    setCurrent(next)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 }
    if (!(event.key in moves)) return
    event.preventDefault()
    go(moves[event.key])
  }
  const onScroll = () => {
    const el = track.current
    if (el && el.clientWidth > 0) setCurrent(Math.round(el.scrollLeft / el.clientWidth))
  }
  return (
    <section className="gallery" aria-roledescription="галерея" aria-label="Фотографии товара">
      {/* Focusable, so a keyboard scrolls it (WCAG scrollable region); the island adds the arrow keys. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        className="gallery__track snap-track"
        ref={track}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="group"
        aria-label={count > 1 ? 'Фотографии: стрелки влево и вправо листают' : 'Фотография'}
      >
        {images.map((item, i) => (
          <figure className="gallery__slide" key={i} aria-label={`${i + 1} из ${count}`}>
            <Image
              src={item.image}
              alt={item.alt || (i === 0 ? title : `${title}, фото ${i + 1}`)}
              width={600}
              eager={i === 0}
              sizes={sizes}
            />
          </figure>
        ))}
      </div>
      {count > 1 && (
        <div className="gallery__thumbs">
          {images.map((item, i) => (
            <button
              key={i}
              type="button"
              className="gallery__thumb"
              aria-label={`Фото ${i + 1} из ${count}`}
              aria-current={i === current}
              onClick={() => go(i)}
            >
              <Image src={item.image} alt="" width={64} sizes="64px" />
            </button>
          ))}
        </div>
      )}
    </section>
  )
}
