/** Maximum lengths of the lead's text fields, in characters (docs/contract.md §4). */
export const LEAD_LIMITS = { username: 190, phone: 400, email: 400 } as const

/** A lead request that passed validation. `consent` can only be `true`: no consent, no lead. */
export type Lead = {
  username: string
  phone: string
  email: string
  consent: true
}

export type LeadField = keyof Lead

export type LeadTextField = Exclude<LeadField, 'consent'>

/** Field labels exactly as the spec and the contract show them. */
export const LEAD_LABELS = {
  username: 'Ваше имя',
  phone: 'Ваш телефон',
  email: 'Ваш E-mail',
  consent: 'Я даю согласие на обработку персональных данных',
} as const satisfies Record<LeadField, string>
