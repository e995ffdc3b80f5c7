// The operator of personal data as the documents name it: the owner's name, ИНН and address, from
// OPERATOR_NAME / OPERATOR_INN / OPERATOR_ADDRESS when set, else from the back office's fields.
// While any is empty the back office shows a warning: the policy must name who processes the data.
import type { Config } from '../config/config'
import type { Db } from '../data/db'
import { HttpError } from '../http/http-error'
import { hasForbiddenCharacters } from '../../src/validation/plain-text'
import { readSetting, writeSettings } from './privacy-settings'

export const OPERATOR_FIELDS = ['name', 'inn', 'address'] as const
export type OperatorField = (typeof OPERATOR_FIELDS)[number]

const ENV_NAMES: Readonly<Record<OperatorField, string>> = {
  name: 'OPERATOR_NAME',
  inn: 'OPERATOR_INN',
  address: 'OPERATOR_ADDRESS',
}
const MAX_LENGTH: Readonly<Record<OperatorField, number>> = { name: 300, inn: 12, address: 500 }

export interface OperatorDetails {
  readonly values: Readonly<Record<OperatorField, string>>
  /** Fields set in the environment: the back office shows them read-only */
  readonly fromEnv: readonly OperatorField[]
  /** Fields still empty: the warning names them */
  readonly missing: readonly OperatorField[]
}

export async function operatorDetails(db: Db, config: Pick<Config, 'operator'>): Promise<OperatorDetails> {
  const values = {} as Record<OperatorField, string>
  const fromEnv: OperatorField[] = []
  for (const field of OPERATOR_FIELDS) {
    if (config.operator[field] !== '') {
      values[field] = config.operator[field]
      fromEnv.push(field)
    } else {
      values[field] = (await readSetting(db, `operator.${field}`)) ?? ''
    }
  }
  return { values, fromEnv, missing: OPERATOR_FIELDS.filter((field) => values[field] === '') }
}

/** Checks and stores the back office's fields; a field the environment sets is refused. */
export async function saveOperator(db: Db, config: Pick<Config, 'operator'>, body: unknown): Promise<void> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Ожидается JSON-объект: name, inn, address', 'validation_failed')
  }
  const errors: Record<string, string> = {}
  const values: Record<string, string> = {}
  for (const [key, raw] of Object.entries(body)) {
    if (!(OPERATOR_FIELDS as readonly string[]).includes(key)) {
      errors[key] = 'Неизвестное поле'
      continue
    }
    const field = key as OperatorField
    if (config.operator[field] !== '') {
      errors[field] = `Задано в настройках сервера (${ENV_NAMES[field]})`
      continue
    }
    const text = typeof raw === 'string' ? raw.trim() : null
    if (text === null) errors[field] = 'Ожидается текст'
    else if (text.length > MAX_LENGTH[field]) errors[field] = `Не длиннее ${MAX_LENGTH[field]} символов`
    else if (hasForbiddenCharacters(text, 'single-line')) errors[field] = 'Значение недопустимо'
    else if (field === 'inn' && text !== '' && !/^(\d{10}|\d{12})$/.test(text)) errors[field] = 'ИНН: 10 или 12 цифр'
    else values[`operator.${field}`] = text
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, 'Проверьте поля', 'validation_failed', errors)
  await writeSettings(db, values)
}
