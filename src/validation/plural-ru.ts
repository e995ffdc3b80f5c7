/** The four word forms Intl.PluralRules('ru') can ask for. */
export type PluralForms = {
  readonly one: string
  readonly few: string
  readonly many: string
  readonly other: string
}

const rules = new Intl.PluralRules('ru')

/**
 * Picks the Russian word form that agrees with `count`.
 *
 * @example pluralRu(2, { one: 'символ', few: 'символа', many: 'символов', other: 'символа' }) // 'символа'
 */
export function pluralRu(count: number, forms: PluralForms): string {
  const category = rules.select(count)
  return category === 'one' || category === 'few' || category === 'many' ? forms[category] : forms.other
}
