import type { Ref } from 'react'

/** What an input reports upward: an empty value becomes null (docs/contract.md §6), anything else stays. */
export function toFieldValue(raw: string): string | null {
  return raw === '' ? null : raw
}

/** What an input shows: a missing value is the empty string, the inputs' default value. */
export function fromFieldValue(value: string | null | undefined): string {
  return value ?? ''
}

/** DOM ids of the texts that describe an input. */
export function fieldTextIds(id: string): { hint: string; error: string } {
  return { hint: `${id}-hint`, error: `${id}-error` }
}

/**
 * ARIA attributes linking an input to its error and hint. The error comes first so that a screen
 * reader announces what is wrong before the general advice.
 */
export function fieldAria(
  id: string,
  texts: { hint?: string; error?: string },
): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const ids = fieldTextIds(id)
  const describedBy = [texts.error ? ids.error : '', texts.hint ? ids.hint : ''].filter(Boolean).join(' ')
  return {
    ...(texts.error ? { 'aria-invalid': true as const } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  }
}

/** Hands an element to a ref of either kind, for components that also need the element themselves. */
export function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value)
  else if (ref) ref.current = value
}

/** Joins BEM class names, skipping the ones whose condition is off. */
export function classNames(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ')
}
