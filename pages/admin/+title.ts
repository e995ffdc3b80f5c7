// https://vike.dev/title — per screen, on the first load and after each client navigation.
import type { PageContext } from 'vike/types'
import { SCREEN_TITLES, screenOf } from './screens'

export function title({ urlPathname }: PageContext): string {
  const screen = screenOf(urlPathname)
  return `${screen ? SCREEN_TITLES[screen.kind] : 'Нет такой страницы'} — управление сайтом`
}
