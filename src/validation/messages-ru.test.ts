import type { ErrorObject } from 'ajv'
import { describe, expect, it } from 'vitest'
import { createAjv } from './create-ajv'
import { issueFromAjvError, messageForAjvError, messageRu, messagesRu } from './messages-ru'
import { TOKEN_PATTERN } from './patterns'
import { pluralRu } from './plural-ru'

const CHARS = { one: 'символ', few: 'символа', many: 'символов', other: 'символа' }

function errorsFor(schema: object, data: unknown): ErrorObject[] {
  const validate = createAjv().compile(schema)
  expect(validate(data)).toBe(false)
  return validate.errors ?? []
}

function firstMessage(schema: object, data: unknown): string {
  return messageForAjvError(errorsFor(schema, data)[0])
}

describe('pluralRu', () => {
  it('picks the form Russian grammar asks for after each count', () => {
    expect(pluralRu(1, CHARS)).toBe('символ')
    expect(pluralRu(2, CHARS)).toBe('символа')
    expect(pluralRu(4, CHARS)).toBe('символа')
    expect(pluralRu(5, CHARS)).toBe('символов')
    expect(pluralRu(11, CHARS)).toBe('символов')
    expect(pluralRu(12, CHARS)).toBe('символов')
    expect(pluralRu(21, CHARS)).toBe('символ')
    expect(pluralRu(22, CHARS)).toBe('символа')
    expect(pluralRu(190, CHARS)).toBe('символов')
    expect(pluralRu(1.5, CHARS)).toBe('символа')
  })
})

describe('message plural forms', () => {
  it('says «Не более 190 символов» for a 190-character limit', () => {
    expect(messagesRu.string.max(190)).toBe('Не более 190 символов')
  })

  it('says «Не менее 2 символов» for a 2-character minimum', () => {
    expect(messagesRu.string.min(2)).toBe('Не менее 2 символов')
  })

  it('says «Не более 1 символа» for a 1-character limit', () => {
    expect(messagesRu.string.max(1)).toBe('Не более 1 символа')
  })

  it('uses the singular genitive again for 21 and the plural for 11', () => {
    expect(messagesRu.string.max(21)).toBe('Не более 21 символа')
    expect(messagesRu.string.max(11)).toBe('Не более 11 символов')
  })

  it('uses the nominative after «ровно»', () => {
    expect(messagesRu.string.length(1)).toBe('Должно быть ровно 1 символ')
    expect(messagesRu.string.length(3)).toBe('Должно быть ровно 3 символа')
    expect(messagesRu.string.length(10)).toBe('Должно быть ровно 10 символов')
  })

  it('counts list items and decimal places with agreeing nouns', () => {
    expect(messagesRu.array.min(1)).toBe('Не менее 1 элемента')
    expect(messagesRu.array.max(5)).toBe('Не более 5 элементов')
    expect(messagesRu.array.length(2)).toBe('Должно быть ровно 2 элемента')
    expect(messagesRu.number.precision(1)).toBe('Не более 1 знака после запятой')
    expect(messagesRu.number.precision(2)).toBe('Не более 2 знаков после запятой')
  })

  it('writes large limits with the Russian digit grouping', () => {
    expect(messagesRu.number.max(10000)).toBe(
      `Значение должно быть не больше ${new Intl.NumberFormat('ru-RU').format(10000)}`,
    )
  })

  it('names date limits in the Russian day.month.year order', () => {
    expect(messagesRu.date.greater('2025-03-01')).toBe('Дата должна быть позже 01.03.2025')
    expect(messagesRu.date.less('2025-12-31')).toBe('Дата должна быть раньше 31.12.2025')
    expect(messagesRu.date.format('ДД.ММ.ГГГГ')).toBe('Дата должна быть в формате ДД.ММ.ГГГГ')
  })
})

describe('messageRu', () => {
  it('looks a message up by error type under a group', () => {
    expect(messageRu('string', 'max', 190)).toBe('Не более 190 символов')
    expect(messageRu('string', 'email')).toBe('Некорректный адрес электронной почты')
  })

  it('falls back to the any group for shared types', () => {
    expect(messageRu('string', 'required')).toBe('Поле обязательно')
    expect(messageRu('number', 'unknown')).toBe('Неизвестное поле недопустимо')
  })

  it('answers «Значение недопустимо» for an unknown group, type or a missing limit', () => {
    expect(messageRu('nope', 'nope')).toBe('Значение недопустимо')
    expect(messageRu('string', 'nope')).toBe('Значение недопустимо')
    expect(messageRu('string', 'max')).toBe('Значение недопустимо')
  })

  it('does not treat inherited object keys as message types', () => {
    expect(messageRu('string', 'toString')).toBe('Значение недопустимо')
    expect(messageRu('__proto__', 'constructor')).toBe('Значение недопустимо')
  })
})

describe('messageForAjvError', () => {
  it('reports a missing property as «Поле обязательно»', () => {
    expect(firstMessage({ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, {})).toBe(
      'Поле обязательно',
    )
  })

  it('reports an extra property as unknown', () => {
    expect(firstMessage({ type: 'object', additionalProperties: false }, { x: 1 })).toBe('Неизвестное поле недопустимо')
  })

  it('treats null, an empty and a blank string as missing', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', minLength: 1, pattern: '\\S' } } }
    expect(firstMessage(schema, { a: null })).toBe('Поле обязательно')
    expect(firstMessage(schema, { a: '' })).toBe('Поле обязательно')
    expect(firstMessage(schema, { a: ' \t ' })).toBe('Поле обязательно')
  })

  it('treats an unticked required box as missing', () => {
    expect(firstMessage({ type: 'object', properties: { ok: { type: 'boolean', const: true } } }, { ok: false })).toBe(
      'Поле обязательно',
    )
  })

  it('names the limits of strings, numbers and lists', () => {
    expect(firstMessage({ type: 'string', maxLength: 3 }, 'abcd')).toBe('Не более 3 символов')
    expect(firstMessage({ type: 'string', minLength: 2 }, 'a')).toBe('Не менее 2 символов')
    expect(firstMessage({ type: 'string', minLength: 4, maxLength: 4 }, 'abc')).toBe('Должно быть ровно 4 символа')
    expect(firstMessage({ type: 'number', maximum: 10 }, 11)).toBe('Значение должно быть не больше 10')
    expect(firstMessage({ type: 'number', minimum: 1 }, 0)).toBe('Значение должно быть не меньше 1')
    expect(firstMessage({ type: 'number', exclusiveMinimum: 5 }, 5)).toBe('Значение должно быть больше 5')
    expect(firstMessage({ type: 'number', exclusiveMaximum: 5 }, 5)).toBe('Значение должно быть меньше 5')
    expect(firstMessage({ type: 'array', maxItems: 2 }, [1, 2, 3])).toBe('Не более 2 элементов')
    expect(firstMessage({ type: 'array', minItems: 2, maxItems: 2 }, [1])).toBe('Должно быть ровно 2 элемента')
  })

  it('maps sign, integer and decimal-place rules of numbers', () => {
    expect(firstMessage({ type: 'number', exclusiveMinimum: 0 }, 0)).toBe('Значение должно быть положительным числом')
    expect(firstMessage({ type: 'number', exclusiveMaximum: 0 }, 1)).toBe('Значение должно быть отрицательным числом')
    expect(firstMessage({ type: 'integer' }, 1.5)).toBe('Значение должно быть целым числом')
    expect(firstMessage({ type: 'number', multipleOf: 0.01 }, 1.234)).toBe('Не более 2 знаков после запятой')
  })

  it('maps wrong types to their group', () => {
    expect(firstMessage({ type: 'string' }, 5)).toBe('Значение должно быть строкой')
    expect(firstMessage({ type: 'number' }, 'x')).toBe('Значение должно быть числом')
    expect(firstMessage({ type: 'boolean' }, 'true')).toBe('Значение должно быть «да» или «нет»')
    expect(firstMessage({ type: 'object' }, [])).toBe('Значение должно быть объектом')
    expect(firstMessage({ type: 'array' }, {})).toBe('Значение должно быть списком')
  })

  it('maps formats, duplicates and the token pattern', () => {
    expect(firstMessage({ type: 'string', format: 'email' }, 'нет')).toBe('Некорректный адрес электронной почты')
    expect(firstMessage({ type: 'string', format: 'uri' }, 'не ссылка')).toBe('Некорректный адрес ссылки')
    expect(firstMessage({ type: 'string', format: 'date' }, '2025-02-30')).toBe('Укажите корректную дату')
    expect(firstMessage({ type: 'array', uniqueItems: true }, [1, 1])).toBe('Элементы списка не должны повторяться')
    expect(firstMessage({ type: 'string', pattern: TOKEN_PATTERN }, 'a-b')).toBe(
      'Допустимы только латинские буквы, цифры и знак подчёркивания',
    )
  })

  it('maps date comparisons to later and earlier than the limit', () => {
    expect(firstMessage({ type: 'string', format: 'date', formatExclusiveMinimum: '2025-01-01' }, '2025-01-01')).toBe(
      'Дата должна быть позже 01.01.2025',
    )
    expect(firstMessage({ type: 'string', format: 'date', formatExclusiveMaximum: '2025-01-01' }, '2025-01-01')).toBe(
      'Дата должна быть раньше 01.01.2025',
    )
  })

  it('answers «Значение недопустимо» for any other failure', () => {
    expect(firstMessage({ enum: ['a', 'b'] }, 'c')).toBe('Значение недопустимо')
    expect(firstMessage({ type: 'string', pattern: '^\\d+$' }, 'x')).toBe('Значение недопустимо')
  })

  it('recognises the blank pattern even without the failing value', () => {
    const error: ErrorObject = {
      keyword: 'pattern',
      instancePath: '/a',
      schemaPath: '#/properties/a/pattern',
      params: { pattern: '\\S' },
    }
    expect(issueFromAjvError(error)).toEqual({ group: 'any', type: 'required' })
  })
})
