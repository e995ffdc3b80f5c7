// The cookie notice's names and words (docs/decisions/027-personal-data.md), shared by the page
// (renderer/+Layout.tsx), the browser's code that builds and runs the notice (cookie-notice.ts)
// and the server, which versions the text (server/content/documents.ts).

/** The cookie that keeps the choice: `1.<version>` (analytics allowed) or `0.<version>`. */
export const COOKIE_CHOICE_NAME = 'vitrina_cookies'
/** A year, in seconds: how long the choice is kept. */
export const COOKIE_CHOICE_MAX_AGE = 365 * 24 * 3600
export const COOKIE_NOTICE_ID = 'cookie-notice'
/** The counter's script unless METRIKA_TAG_URL names another: the page names only another one. */
export const DEFAULT_COUNTER_SRC = 'https://mc.yandex.ru/metrika/tag.js'

/** What a page with a counter tells its browser code of the notice (the counter's id aside). */
export interface CookieNoticeSettings {
  /** Version (hash) of the notice's text: a choice made under another text is asked again */
  readonly version: string
  /** The page with the full text, when the site has one */
  readonly more?: string
  /** The counter's script, only when it is not DEFAULT_COUNTER_SRC */
  readonly src?: string
}

/** What the notice says; the full text is the cookie page the notice links to. */
export const COOKIE_NOTICE_TEXT = {
  title: 'Мы используем файлы cookie',
  body:
    'Сайт использует обязательные файлы cookie для своей работы. С вашего согласия мы также ' +
    'подключим Яндекс Метрику, чтобы понимать, как посетители пользуются сайтом.',
  more: 'Подробнее',
  accept: 'Принять',
  reject: 'Отклонить',
  settings: 'Настроить',
  analytics: 'Аналитика (Яндекс Метрика)',
  analyticsHint: 'Статистика посещений. Без вашего согласия счётчик не загружается.',
  required: 'Обязательные: хранят ваш выбор и работу форм. Отключить нельзя.',
  save: 'Сохранить выбор',
  footerLink: 'Настройки cookie',
} as const
