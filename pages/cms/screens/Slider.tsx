import { Image } from '../../../src/components/Image'
import { SliderControls } from '../../../src/components/SliderControls'
import { Island } from '../../../src/islands/Island'
import type { HomePage } from '../../../src/site/types'
import '../../../src/components/snap-track.css'
import './slider.css'

// The container's width: 1200px less its 16px padding on each side.
const SLIDE_SIZES = '(min-width: 1200px) 1168px, calc(100vw - 32px)'

/**
 * Scroll-snap slider: swipe on phones, arrows and dots elsewhere; works without JS. The slides are
 * rendered on the server only; the arrows and dots, which do nothing without JS, are a client-only
 * island (SliderControls): the browser renders them into the row slider.css keeps free.
 */
export function Slider({ slides }: { slides: HomePage['slides'] }) {
  if (slides.length === 0) return null
  return (
    <section className="slider" aria-roledescription="карусель" aria-label="Предложения">
      {/* Focusable, so keyboard users can scroll it with the arrow keys (WCAG scrollable region). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="slider__track snap-track" tabIndex={0} role="group" aria-label="Слайды">
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
        <Island name="slider" component={SliderControls} props={{ count: slides.length }} clientOnly />
      )}
    </section>
  )
}
