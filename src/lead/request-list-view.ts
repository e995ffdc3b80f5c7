// The request list as its page shows it: the cookie's lines with today's titles, артикулы and
// prices from the catalogue (the page's server side builds it: server/leads/list/list-view.ts).
// Prices in whole kopecks; null: «по запросу».
import type { RequestList } from './request-list'

export interface RequestListLineView {
  readonly productId: number
  /** The product's variant (docs/decisions/043-variants.md); the title names it too */
  readonly variantId?: number
  readonly title: string
  readonly url: string
  readonly article: string | null
  readonly price: number | null
  readonly quantity: number
  readonly sum: number | null
}

export interface RequestListView {
  readonly lines: readonly RequestListLineView[]
  /** The sum of the lines when every line has a price, else null */
  readonly total: number | null
  /** Lines of the cookie whose product is no longer public: left out of the list and of the lead */
  readonly gone: number
}

/** What the server gives the list page in pageContext (server-only). */
export interface RequestListSource {
  view(list: RequestList): Promise<RequestListView>
}

/** The texts of the list, in one place for the page, the buttons and the server's answers. */
export const REQUEST_LIST_TEXTS = {
  title: 'Моя заявка',
  add: 'В заявку',
  added: 'Добавлено в заявку',
  addedShort: 'Добавлено',
  open: 'Перейти к заявке',
  quantity: 'Количество',
  update: 'Изменить',
  remove: 'Удалить',
  empty: 'В заявке пока нет товаров. Добавьте их из каталога кнопкой «В заявку».',
  total: 'Итого',
  onRequest: 'по запросу',
  partlyOnRequest: 'Цена части товаров — по запросу: итог назовёт менеджер.',
  send: 'Отправить заявку',
  gone: 'Часть товаров больше не продаётся и убрана из заявки.',
  full: 'В заявке уже 100 строк: отправьте её или уберите лишнее',
  unknownProduct: 'Товар не найден: возможно, он снят с продажи',
  badQuantity: 'Количество — целое число от 1 до 9 999',
  badRequest: 'Не удалось изменить заявку: обновите страницу и попробуйте ещё раз',
  failed: 'Не удалось добавить товар. Попробуйте ещё раз',
} as const

/** The event the browser's parts of the list send each other when the list changed. */
export const REQUEST_LIST_EVENT = 'vitrina:request-list'
