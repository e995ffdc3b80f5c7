import { ADMIN_PATHS } from '../../src/site/paths'

/** The back office's screens by path; null for a path under /admin that is none of them. */
export type Screen =
  | { kind: 'leads' }
  | { kind: 'content' }
  | { kind: 'record'; id: string }
  | { kind: 'privacy' }
  | { kind: 'price-list' }
  | { kind: 'exchange' }
  | { kind: 'characteristics' }
  | { kind: 'products' }
  | { kind: 'settings' }
  | { kind: 'password' }
  | { kind: 'setup' }

export function screenOf(pathname: string): Screen | null {
  if (pathname === ADMIN_PATHS.leads) return { kind: 'leads' }
  if (pathname === ADMIN_PATHS.content) return { kind: 'content' }
  if (pathname === ADMIN_PATHS.privacy) return { kind: 'privacy' }
  if (pathname === ADMIN_PATHS.priceList) return { kind: 'price-list' }
  if (pathname === ADMIN_PATHS.exchange) return { kind: 'exchange' }
  if (pathname === ADMIN_PATHS.characteristics) return { kind: 'characteristics' }
  if (pathname === ADMIN_PATHS.products) return { kind: 'products' }
  if (pathname === ADMIN_PATHS.settings) return { kind: 'settings' }
  if (pathname === ADMIN_PATHS.password) return { kind: 'password' }
  if (pathname === ADMIN_PATHS.setup) return { kind: 'setup' }
  const id = /^(new|[1-9]\d{0,9})$/.exec(pathname.slice(ADMIN_PATHS.record('').length))?.[1]
  return id && pathname === ADMIN_PATHS.record(id) ? { kind: 'record', id } : null
}

export const SCREEN_TITLES: Readonly<Record<Screen['kind'], string>> = {
  leads: 'Заявки',
  content: 'Содержимое',
  record: 'Запись',
  privacy: 'Персональные данные',
  'price-list': 'Прайс-лист',
  exchange: 'Обмен с 1С',
  characteristics: 'Характеристики',
  products: 'Товары',
  settings: 'Настройки',
  password: 'Сменить пароль',
  setup: 'Пароль владельца',
}
