import { useEffect, useRef, useState } from 'react'

/** The slider's scrolling track, beside the controls in the server's markup (pages/cms/screens/Slider.tsx). */
function trackOf(controls: HTMLElement | null): HTMLElement | null {
  return controls?.closest('.slider')?.querySelector<HTMLElement>('.slider__track') ?? null
}

/**
 * The slider's arrows and dots: the island of the server's Slider. It needs only the number of
 * slides; the slides themselves are plain HTML, not written a second time as props
 * (docs/decisions/035-lighter-html.md).
 */
export function SliderControls({ count }: { count: number }) {
  const controls = useRef<HTMLDivElement>(null)
  const [current, setCurrent] = useState(0)
  useEffect(() => {
    const track = trackOf(controls.current)
    if (!track) return
    const onScroll = () => {
      if (track.clientWidth > 0) setCurrent(Math.round(track.scrollLeft / track.clientWidth))
    }
    track.addEventListener('scroll', onScroll, { passive: true })
    return () => track.removeEventListener('scroll', onScroll)
  }, [])
  const go = (index: number) => {
    const track = trackOf(controls.current)
    if (!track) return
    const next = (index + count) % count
    track.scrollTo({ left: next * track.clientWidth, behavior: 'smooth' })
    setCurrent(next)
  }
  return (
    <div className="slider__controls" ref={controls}>
      <button type="button" className="slider__arrow" onClick={() => go(current - 1)} aria-label="Предыдущий слайд">
        ‹
      </button>
      {Array.from({ length: count }, (_, i) => (
        <button
          key={i}
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
  )
}
