import type { ErrorObject } from 'ajv'
import { NOT_BLANK_PATTERN, TOKEN_PATTERN } from './patterns'
import { pluralRu } from './plural-ru'
import type { PluralForms } from './plural-ru'

/** What a message with a limit names: a count, a number, a date or a date format. */
export type MessageLimit = number | string | Date

type Message = string | ((limit: MessageLimit) => string)

// After «не более / не менее» the noun is genitive: 1 символа, 2 символов, 5 символов, 21 символа.
const CHARS_GENITIVE: PluralForms = { one: 'символа', few: 'символов', many: 'символов', other: 'символа' }
// After «ровно» it is nominative: 1 символ, 2 символа, 5 символов.
const CHARS_NOMINATIVE: PluralForms = { one: 'символ', few: 'символа', many: 'символов', other: 'символа' }
const ITEMS_GENITIVE: PluralForms = { one: 'элемента', few: 'элементов', many: 'элементов', other: 'элемента' }
const ITEMS_NOMINATIVE: PluralForms = { one: 'элемент', few: 'элемента', many: 'элементов', other: 'элемента' }
const PLACES_GENITIVE: PluralForms = { one: 'знака', few: 'знаков', many: 'знаков', other: 'знака' }

const numberFormat = new Intl.NumberFormat('ru-RU')
const dateFormat = new Intl.DateTimeFormat('ru-RU')
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function toNumber(limit: MessageLimit): number {
  return typeof limit === 'number' ? limit : Number(limit)
}

function formatNumber(limit: MessageLimit): string {
  const n = toNumber(limit)
  return Number.isFinite(n) ? numberFormat.format(n) : String(limit)
}

function withCount(limit: MessageLimit, forms: PluralForms): string {
  const n = toNumber(limit)
  return `${formatNumber(n)} ${pluralRu(n, forms)}`
}

/** «Не менее / не более / ровно N …» for lists (items) and strings (characters). */
function countMessages(genitive: PluralForms, nominative: PluralForms) {
  return {
    min: (limit: MessageLimit) => `Не менее ${withCount(limit, genitive)}`,
    max: (limit: MessageLimit) => `Не более ${withCount(limit, genitive)}`,
    length: (limit: MessageLimit) => `Должно быть ровно ${withCount(limit, nominative)}`,
  }
}

function formatDateLimit(limit: MessageLimit): string {
  if (limit instanceof Date) return dateFormat.format(limit)
  // A date-only ISO string is rewritten by hand: going through Date would shift it by the
  // runtime's time zone and show the previous day west of UTC.
  const iso = typeof limit === 'string' ? ISO_DATE.exec(limit) : null
  return iso ? `${iso[3]}.${iso[2]}.${iso[1]}` : String(limit)
}

/**
 * Russian validation messages, grouped by value type (the «validator» of a form field).
 * Keys follow Joi's error types (`string.max`, `any.required`, …), which the original
 * product's message groups used. Messages that name a limit are functions of it.
 */
export const messagesRu = {
  any: {
    required: 'Поле обязательно',
    invalid: 'Значение недопустимо',
    unknown: 'Неизвестное поле недопустимо',
  },
  array: {
    base: 'Значение должно быть списком',
    ...countMessages(ITEMS_GENITIVE, ITEMS_NOMINATIVE),
    sparse: 'Список не должен содержать пустых элементов',
    unique: 'Элементы списка не должны повторяться',
  },
  boolean: {
    base: 'Значение должно быть «да» или «нет»',
  },
  date: {
    base: 'Укажите корректную дату',
    format: (limit: MessageLimit) => `Дата должна быть в формате ${String(limit)}`,
    greater: (limit: MessageLimit) => `Дата должна быть позже ${formatDateLimit(limit)}`,
    less: (limit: MessageLimit) => `Дата должна быть раньше ${formatDateLimit(limit)}`,
    min: (limit: MessageLimit) => `Дата должна быть не раньше ${formatDateLimit(limit)}`,
    max: (limit: MessageLimit) => `Дата должна быть не позже ${formatDateLimit(limit)}`,
  },
  number: {
    base: 'Значение должно быть числом',
    integer: 'Значение должно быть целым числом',
    greater: (limit: MessageLimit) => `Значение должно быть больше ${formatNumber(limit)}`,
    less: (limit: MessageLimit) => `Значение должно быть меньше ${formatNumber(limit)}`,
    min: (limit: MessageLimit) => `Значение должно быть не меньше ${formatNumber(limit)}`,
    max: (limit: MessageLimit) => `Значение должно быть не больше ${formatNumber(limit)}`,
    positive: 'Значение должно быть положительным числом',
    negative: 'Значение должно быть отрицательным числом',
    precision: (limit: MessageLimit) => `Не более ${withCount(limit, PLACES_GENITIVE)} после запятой`,
  },
  object: {
    base: 'Значение должно быть объектом',
  },
  string: {
    base: 'Значение должно быть строкой',
    empty: 'Поле не может быть пустым',
    ...countMessages(CHARS_GENITIVE, CHARS_NOMINATIVE),
    email: 'Некорректный адрес электронной почты',
    phone: 'Номер телефона неполный: для России нужно 11 цифр, для других стран — от 10 до 15',
    token: 'Допустимы только латинские буквы, цифры и знак подчёркивания',
    uri: 'Некорректный адрес ссылки',
    /** A single-line field with a line break, a tab or an invisible control character */
    line: 'Уберите переносы строк и невидимые управляющие символы',
    /** A multi-line text with an invisible control character (line breaks and tabs are fine) */
    control: 'Уберите невидимые управляющие символы',
  },
} as const satisfies Record<string, Record<string, Message>>

export type MessageGroup = keyof typeof messagesRu

/** A validation failure before it is put into words: a message type under a group, and its limit. */
type ValidationIssue = {
  readonly group: MessageGroup
  readonly type: string
  readonly limit?: MessageLimit
}

function isMessageGroup(group: string): group is MessageGroup {
  return Object.hasOwn(messagesRu, group)
}

function findMessage(group: string, type: string): Message | undefined {
  const table: Record<string, Message> | undefined = isMessageGroup(group) ? messagesRu[group] : undefined
  if (table && Object.hasOwn(table, type)) return table[type]
  const any: Record<string, Message> = messagesRu.any
  return Object.hasOwn(any, type) ? any[type] : undefined
}

/**
 * The Russian text for an error type under a message group. Falls back to the `any` group, then
 * to «Значение недопустимо», so an unknown type never shows a raw key to a visitor.
 *
 * @example messageRu('string', 'max', 190) // 'Не более 190 символов'
 */
export function messageRu(group: string, type: string, limit?: MessageLimit): string {
  const message = findMessage(group, type)
  if (typeof message === 'string') return message
  if (message && limit !== undefined) return message(limit)
  return messagesRu.any.invalid
}

function isEmptyValue(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '')
}

const TYPE_GROUPS: Readonly<Record<string, ValidationIssue>> = {
  string: { group: 'string', type: 'base' },
  number: { group: 'number', type: 'base' },
  integer: { group: 'number', type: 'integer' },
  boolean: { group: 'boolean', type: 'base' },
  object: { group: 'object', type: 'base' },
  array: { group: 'array', type: 'base' },
}

const EMAIL_FORMATS = new Set(['email', 'idn-email'])
const URI_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference', 'url'])
const DATE_FORMATS = new Set(['date', 'date-time', 'time', 'iso-date-time', 'iso-time'])

// Keywords whose failure on an empty value (null, '' or blanks) means «nothing was entered».
const EMPTY_MEANS_MISSING = new Set(['type', 'pattern', 'minLength', 'format', 'const', 'enum'])

function decimalPlaces(step: number): number | undefined {
  for (let places = 1; places <= 15; places++) {
    if (Math.abs(step - 10 ** -places) < Number.EPSILON) return places
  }
  return undefined
}

function sibling(error: ErrorObject, keyword: string): unknown {
  const parent: unknown = error.parentSchema
  return typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>)[keyword] : undefined
}

const required: ValidationIssue = { group: 'any', type: 'required' }
const invalid: ValidationIssue = { group: 'any', type: 'invalid' }

/**
 * Classifies one ajv error as a message type under a group. Uses `error.data` (ajv's
 * `verbose: true`, which createAjv sets) to treat null, '' and blank strings as missing, and an
 * unticked `const: true` box as missing, as the lead form's rules require.
 */
export function issueFromAjvError(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>
  const limit = params.limit as number | string | undefined
  // The empty-means-missing rule is about fields; a whole body of null is just not an object.
  const hasData = 'data' in error && error.instancePath !== ''

  if (hasData && isEmptyValue(error.data) && EMPTY_MEANS_MISSING.has(error.keyword)) return required
  if (hasData && error.keyword === 'const' && error.data === false && params.allowedValue === true) return required

  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return required
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { group: 'any', type: 'unknown' }
    case 'type': {
      const first = String(params.type ?? '').split(',')[0]
      return TYPE_GROUPS[first] ?? invalid
    }
    case 'maxLength':
      return { group: 'string', type: sibling(error, 'minLength') === limit ? 'length' : 'max', limit }
    case 'minLength':
      if (sibling(error, 'maxLength') === limit) return { group: 'string', type: 'length', limit }
      return limit === 1 ? { group: 'string', type: 'empty' } : { group: 'string', type: 'min', limit }
    case 'maxItems':
      return { group: 'array', type: sibling(error, 'minItems') === limit ? 'length' : 'max', limit }
    case 'minItems':
      return { group: 'array', type: sibling(error, 'maxItems') === limit ? 'length' : 'min', limit }
    case 'uniqueItems':
      return { group: 'array', type: 'unique' }
    case 'maximum':
      return { group: 'number', type: 'max', limit }
    case 'minimum':
      return { group: 'number', type: 'min', limit }
    case 'exclusiveMaximum':
      return limit === 0 ? { group: 'number', type: 'negative' } : { group: 'number', type: 'less', limit }
    case 'exclusiveMinimum':
      return limit === 0 ? { group: 'number', type: 'positive' } : { group: 'number', type: 'greater', limit }
    case 'multipleOf': {
      const step = Number(params.multipleOf)
      if (step === 1) return { group: 'number', type: 'integer' }
      const places = decimalPlaces(step)
      return places === undefined ? invalid : { group: 'number', type: 'precision', limit: places }
    }
    case 'format': {
      const format = String(params.format)
      if (EMAIL_FORMATS.has(format)) return { group: 'string', type: 'email' }
      if (format === 'phone') return { group: 'string', type: 'phone' }
      if (URI_FORMATS.has(format)) return { group: 'string', type: 'uri' }
      if (DATE_FORMATS.has(format)) return { group: 'date', type: 'base' }
      return invalid
    }
    // ajv-formats' comparison keywords, used on date and time formats.
    case 'formatMaximum':
      return { group: 'date', type: 'max', limit }
    case 'formatMinimum':
      return { group: 'date', type: 'min', limit }
    case 'formatExclusiveMaximum':
      return { group: 'date', type: 'less', limit }
    case 'formatExclusiveMinimum':
      return { group: 'date', type: 'greater', limit }
    case 'kopecks':
      return { group: 'number', type: 'precision', limit: 2 }
    case 'text':
      return { group: 'string', type: params.kind === 'multi-line' ? 'control' : 'line' }
    case 'pattern':
      // Without `verbose` there is no data to look at, but the blank check is recognisable.
      if (params.pattern === NOT_BLANK_PATTERN) return required
      return params.pattern === TOKEN_PATTERN ? { group: 'string', type: 'token' } : invalid
    default:
      return invalid
  }
}

/**
 * The Russian text for one ajv error. A message written in the schema through ajv-errors'
 * `errorMessage` keyword wins, since someone chose it on purpose.
 *
 * @example messageForAjvError({ keyword: 'maxLength', params: { limit: 190 }, … }) // 'Не более 190 символов'
 */
export function messageForAjvError(error: ErrorObject): string {
  if (error.keyword === 'errorMessage' && error.message) return error.message
  const issue = issueFromAjvError(error)
  return messageRu(issue.group, issue.type, issue.limit)
}
