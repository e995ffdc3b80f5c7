import { useRef, useState } from 'react'
import { Image } from './Image'
import type { HomePage } from '../site/types'
import './snap-track.css'
import './slider.css'

// The container's width: 1200px less its 16px padding on each side.
const SLIDE_SIZES = '(min-width: 1200px) 1168px, calc(100vw - 32px)'

/** Scroll-snap slider: swipe on phones, arrows and dots elsewhere; works without JS. */
export function Slider({ slides }: { slides: HomePage['slides'] }) {
  const track = useRef<HTMLDivElement>(null)
  const [current, setCurrent] = useState(0)
  if (slides.length === 0) return null
  const go = (index: number) => {
    const el = track.current
    if (!el) return
    const next = (index + slides.length) % slides.length
    el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' })
    setCurrent(next)
  }
  const onScroll = () => {
    const el = track.current
    if (el && el.clientWidth > 0) setCurrent(Math.round(el.scrollLeft / el.clientWidth))
  }
  return (
    <section className="slider" aria-roledescription="карусель" aria-label="Предложения">
      {/* Focusable, so keyboard users can scroll it with the arrow keys (WCAG scrollable region). */}
      <div
        className="slider__track snap-track"
        ref={track}
        onScroll={onScroll}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="group"
        aria-label="Слайды"
      >
        {slides.map((slide, i) => (
          <figure
            className="slider__slide"
            key={slide.id}
            aria-roledescription="слайд"
            aria-label={`${i + 1} из ${slides.length}`}
          >
            <Image
              src={slide.image}
              alt={slide.title ?? ''}
              shape="slide"
              width={1200}
              eager={i === 0}
              sizes={SLIDE_SIZES}
            />
            {slide.title && <figcaption className="slider__caption">{slide.title}</figcaption>}
          </figure>
        ))}
      </div>
      {slides.length > 1 && (
        <div className="slider__controls">
          <button type="button" className="slider__arrow" onClick={() => go(current - 1)} aria-label="Предыдущий слайд">
            ‹
          </button>
          {slides.map((slide, i) => (
            <button
              key={slide.id}
              type="button"
              className="slider__dot"
              aria-current={i === current}
              aria-label={`Слайд ${i + 1}`}
              onClick={() => go(i)}
            />
          ))}
          <button type="button" className="slider__arrow" onClick={() => go(current + 1)} aria-label="Следующий слайд">
            ›
          </button>
        </div>
      )}
    </section>
  )
}
