import { createContext, useContext } from 'react'
import type { ReactNode } from 'react'

/** The fade of a dialog in and out, in ms (docs/contract.md §4). */
export const MODAL_FADE_MS = 300

/** What a dialog's content can do with its own dialog. */
export type DialogControls = {
  /** Closes this dialog (with the fade) and returns focus to its opener. */
  close: () => void
  /** Changes the dialog's title, e.g. to «Заявка отправлена» after a success. */
  setTitle: (title: string) => void
  /** The id of the title element, which labels the dialog. */
  titleId: string
}

export type DialogOptions = {
  title: string
  render: (controls: DialogControls) => ReactNode
  /** The element focus returns to when the dialog closes; defaults to the focused element. */
  opener?: HTMLElement | null
}

/** The dialog stack: the top dialog is the one Escape, the backdrop and its close button close. */
export type ModalApi = {
  /** Opens a dialog on top of the stack and returns its id. */
  open: (options: DialogOptions) => number
  close: (id: number) => void
  /** Closes the top dialog, if any. */
  closeTop: () => void
}

export const ModalContext = createContext<ModalApi | null>(null)

/** The dialog stack of the layout, or null outside a ModalProvider (then links work as links). */
export function useModal(): ModalApi | null {
  return useContext(ModalContext)
}
