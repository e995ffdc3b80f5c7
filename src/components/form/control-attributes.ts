import { useCallback, useRef, type Ref, type RefObject } from 'react'
import type { BaseFieldProps } from './field-props'
import { assignRef, fieldAria } from './field-value'

/**
 * The attributes every input control shares (text, phone, textarea): its id and name, the
 * texts it is described by, and the state assistive technology hears.
 */
export function controlAttributes<E extends HTMLElement>(props: BaseFieldProps<E>) {
  const { id, name, onBlur, placeholder, autoComplete, required, disabled, hint, error } = props
  return {
    className: 'field__control',
    id,
    name: name ?? id,
    onBlur,
    placeholder,
    autoComplete,
    'aria-required': required || undefined,
    disabled,
    ...fieldAria(id, { hint, error }),
  }
}

/** The element for the component itself, handed on to the caller's ref as well. */
export function useOwnElement<E extends HTMLElement>(
  ref: Ref<E> | undefined,
): [RefObject<E | null>, (node: E | null) => void] {
  const element = useRef<E | null>(null)
  const setElement = useCallback(
    (node: E | null) => {
      element.current = node
      assignRef(ref, node)
    },
    [ref],
  )
  return [element, setElement]
}
