import { PATHS } from '../../src/site/paths'

/** The back office's screens by path; null for a path under /admin that is none of them. */
export type Screen =
  | { kind: 'leads' }
  | { kind: 'content' }
  | { kind: 'record'; id: string }
  | { kind: 'privacy' }
  | { kind: 'price-list' }

export function screenOf(pathname: string): Screen | null {
  if (pathname === '/admin') return { kind: 'leads' }
  if (pathname === '/admin/content') return { kind: 'content' }
  if (pathname === '/admin/privacy') return { kind: 'privacy' }
  if (pathname === PATHS.adminPriceList) return { kind: 'price-list' }
  const record = /^\/admin\/content\/(new|[1-9]\d{0,9})$/.exec(pathname)
  return record ? { kind: 'record', id: record[1] } : null
}

export const SCREEN_TITLES: Readonly<Record<Screen['kind'], string>> = {
  leads: 'Заявки',
  content: 'Содержимое',
  record: 'Запись',
  privacy: 'Персональные данные',
  'price-list': 'Прайс-лист',
}
