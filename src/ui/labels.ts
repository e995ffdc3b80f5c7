/** Russian labels of the generic actions (docs/contract.md §6), keyed by action name. */
export const ACTION_LABELS = {
  cancel: 'Отменить',
  clear: 'Очистить',
  close: 'Закрыть',
  create: 'Создать',
  delete: 'Удалить',
  open: 'Открыть',
  save: 'Сохранить',
  update: 'Редактировать',
  confirm: 'Подтвердить',
} as const

/** Label of the header and footer button that opens the lead-request form. */
export const LEAD_BUTTON_LABEL = 'Оставить заявку'
