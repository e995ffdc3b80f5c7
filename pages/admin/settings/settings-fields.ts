import type { SettingKey } from '../../../src/admin/admin-settings'
import { ONE_C_FIELD_KEYS, ONE_C_FIELD_LABELS, ONE_C_FIELDS } from '../../../src/catalogue/one-c-fields'

/** How the screen shows a setting: its label, input kind and hint. */
export interface FieldSpec {
  readonly key: SettingKey
  readonly label: string
  readonly type?: 'text' | 'email' | 'url' | 'password' | 'checkbox'
  readonly placeholder?: string
  readonly hint?: string
  readonly autoComplete?: string
}

export const FIELDS: Readonly<Record<string, readonly FieldSpec[]>> = {
  email: [
    {
      key: 'email.server',
      label: 'Почтовый сервер (SMTP)',
      placeholder: 'smtp.yandex.ru:465',
      hint: 'Имя сервера и порт; 465 — с шифрованием',
    },
    { key: 'email.login', label: 'Логин', autoComplete: 'off' },
    { key: 'email.password', label: 'Пароль', type: 'password', autoComplete: 'new-password' },
    {
      key: 'email.from',
      label: 'Отправитель',
      placeholder: 'Сайт <site@magazin.ru>',
      hint: 'Адрес на вашем домене: письма с чужого адреса попадают в спам',
    },
    { key: 'email.to', label: 'Получатели', placeholder: 'owner@magazin.ru, sales@magazin.ru', hint: 'Через запятую' },
  ],
  telegram: [
    {
      key: 'telegram.token',
      label: 'Токен бота',
      type: 'password',
      autoComplete: 'off',
      hint: 'Его выдаёт @BotFather при создании бота',
    },
    {
      key: 'telegram.chatId',
      label: 'Чат',
      placeholder: '-1001234567890',
      hint: 'Номер чата или @канал; несколько — через запятую',
    },
  ],
  webhook: [
    { key: 'webhook.url', label: 'Адрес вебхука', type: 'url', placeholder: 'https://crm.example.ru/hooks/leads' },
  ],
  site: [
    {
      key: 'site.publicUrl',
      label: 'Адрес сайта',
      type: 'url',
      placeholder: 'https://magazin.ru',
      hint: 'Для ссылок в письмах, карты сайта, фида и обмена с 1С',
    },
  ],
  feed: [
    { key: 'feed.enabled', label: 'Отдавать фид для Яндекса', type: 'checkbox' },
    { key: 'feed.shopName', label: 'Название магазина', hint: 'Пусто — заголовок главной страницы' },
    { key: 'feed.company', label: 'Компания', hint: 'Пусто — название магазина' },
    { key: 'feed.vendor', label: 'Бренд по умолчанию', hint: 'Для товаров без бренда: ваши собственные товары' },
  ],
  metrika: [{ key: 'metrika.id', label: 'Номер счётчика Яндекс Метрики', placeholder: '12345678' }],
  exchange: [
    { key: 'exchange.login', label: 'Логин для 1С', autoComplete: 'off' },
    ...ONE_C_FIELDS.map((field, index): FieldSpec => ({
      key: ONE_C_FIELD_KEYS[field],
      label: `1С обновляет: ${ONE_C_FIELD_LABELS[field].toLowerCase()}${field === 'price' ? ' и старая цена' : ''}`,
      type: 'checkbox',
      hint:
        index === ONE_C_FIELDS.length - 1
          ? 'Снятое 1С пишет только в новый товар, а правки на сайте при обмене сохраняются'
          : undefined,
    })),
  ],
}
