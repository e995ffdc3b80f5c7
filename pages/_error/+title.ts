// https://vike.dev/title
import type { PageContext } from 'vike/types'

export function title(pageContext: PageContext): string {
  if (pageContext.is404) return 'Ошибка 404. Такой страницы нет'
  const status = typeof pageContext.abortStatusCode === 'number' ? pageContext.abortStatusCode : 500
  return `Ошибка ${status}`
}
