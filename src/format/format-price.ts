// One formatter for the whole app: Intl.NumberFormat is costly to build and the options never change.
const rubles = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
})
// Formatting is still ~1 µs a call (24 per home page); a page shows the same few prices on every
// rendering, so each rounded value's text is kept (bounded: emptied when full).
const texts = new Map<number, string>()
const MAX_TEXTS = 1000

/**
 * Formats a price as whole rubles followed by the ruble sign, as Intl writes it for ru-RU:
 * digit groups are separated by a no-break space, and a no-break space precedes «₽».
 * A fractional value is rounded half away from zero (1234.5 → 1235, -1234.5 → -1235), and a
 * value that rounds to zero never shows as «-0». A non-finite value (NaN, ±Infinity) gives ''.
 *
 * @example
 * formatPrice(1234567) // '1 234 567 ₽' (with no-break spaces)
 * formatPrice(99.5)    // '100 ₽'
 */
export function formatPrice(value: number): string {
  if (!Number.isFinite(value)) return ''
  const rounded = Math.sign(value) * Math.round(Math.abs(value))
  // `|| 0` turns -0 into 0 so that -0.4 prints as «0 ₽», not «-0 ₽».
  const key = rounded || 0
  let text = texts.get(key)
  if (text === undefined) {
    if (texts.size >= MAX_TEXTS) texts.clear()
    text = rubles.format(key)
    texts.set(key, text)
  }
  return text
}
