import { createContext, useContext } from 'react'

/** Origin that serves /media/ ('' = same origin); provided once by the layout. */
export const MediaContext = createContext('')

export function useMediaUrl(): string {
  return useContext(MediaContext)
}
