// «Изменить цену» of «Товары» (issue 44): a new price in kopecks, exactly. A percentage is read to
// the hundredth and applied in integers (BigInt: 2,147,483,647 ₽ times 1,100 % is past a float's
// exact integers), then rounded half up to what the owner chose: the kopeck, the ruble, 10 ₽, or
// the nearest price ending in 90 ₽ («…90»: 4 317 ₽ → 4 290 ₽, 4 350 ₽ → 4 390 ₽). An amount is
// added as it is. Never below 0, never past the maximum.
import { MAX_PRICE, type Kopecks } from '../../../src/format/money'

export const PRICE_ROUNDINGS = ['kopeck', 'ruble', 'ten', 'ninety'] as const
export type PriceRounding = (typeof PRICE_ROUNDINGS)[number]

export interface PriceChange {
  /** Percent with at most two decimals, e.g. 7.5 or −10 */
  readonly percent?: number
  /** Kopecks to add (negative: to take off) */
  readonly amount?: Kopecks
  readonly rounding?: PriceRounding
}

/** The step and offset of each rounding, in kopecks: a result is step × n + offset. */
const STEPS: Record<PriceRounding, readonly [bigint, bigint]> = {
  kopeck: [1n, 0n],
  ruble: [100n, 0n],
  ten: [1000n, 0n],
  ninety: [10000n, 9000n],
}

/** `numerator / denominator` rounded half up to step × n + offset (n ≥ 0). */
function roundTo(numerator: bigint, denominator: bigint, [step, offset]: readonly [bigint, bigint]): bigint {
  const shifted = numerator - offset * denominator
  const unit = step * denominator
  const n = shifted >= 0n ? (2n * shifted + unit) / (2n * unit) : 0n
  return n * step + offset
}

/** The price after the change; a percent's result rounded as chosen (default: to the ruble). */
export function changedPrice(price: Kopecks, change: PriceChange): Kopecks {
  let next: bigint
  if (change.percent !== undefined) {
    const hundredths = BigInt(Math.round(change.percent * 100))
    next = roundTo(BigInt(price) * (10000n + hundredths), 10000n, STEPS[change.rounding ?? 'ruble'])
  } else {
    next = BigInt(price) + BigInt(change.amount ?? 0)
  }
  if (next < 0n) return 0
  return next > BigInt(MAX_PRICE) ? MAX_PRICE : Number(next)
}
