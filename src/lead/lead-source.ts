// Where a lead came from: the page the form was sent from and the advertising tags of the visit's
// landing URL. Sent by the form and stored with the lead (the server adds the product when the
// page is a product's), then shown in every delivery channel and in the CSV.

/** The tags kept from the landing URL: UTM, Yandex Direct's yclid and Google Ads' gclid. */
export const VISIT_TAG_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'yclid',
  'gclid',
] as const

export type VisitTagKey = (typeof VISIT_TAG_KEYS)[number]
export type VisitTags = Partial<Record<VisitTagKey, string>>

const LEAD_SOURCE_LIMITS = { sourceUrl: 2000, tag: 500 } as const

/** The source fields of a lead request, each optional (API clients may send none). */
export interface LeadSource {
  /** Path and query of the page the form was sent from, as the browser had it */
  sourceUrl?: string
  utm?: VisitTags
}

/** JSON Schema of the source fields, merged into the lead request schema. */
export const leadSourceProperties = {
  sourceUrl: { type: 'string', pattern: '^/', maxLength: LEAD_SOURCE_LIMITS.sourceUrl, text: 'single-line' },
  utm: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      VISIT_TAG_KEYS.map((key) => [key, { type: 'string', maxLength: LEAD_SOURCE_LIMITS.tag, text: 'single-line' }]),
    ) as Record<VisitTagKey, { type: 'string'; maxLength: number; text: 'single-line' }>,
  },
} as const

/** The visit tags of a URL's query, or null when it has none. */
function visitTagsOf(search: string): VisitTags | null {
  const params = new URLSearchParams(search)
  const tags: VisitTags = {}
  for (const key of VISIT_TAG_KEYS) {
    const value = params.get(key)?.trim()
    if (value) tags[key] = value.slice(0, LEAD_SOURCE_LIMITS.tag)
  }
  return Object.keys(tags).length > 0 ? tags : null
}

/** «utm_source=yandex, utm_medium=cpc»: the tags on one line, in a fixed order. */
export function visitTagsText(tags: VisitTags | null | undefined): string {
  if (!tags) return ''
  return VISIT_TAG_KEYS.filter((key) => tags[key])
    .map((key) => `${key}=${tags[key]}`)
    .join(', ')
}

const VISIT_TAGS_KEY = 'vitrina:visit-tags'

function sessionStore(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null // storage disabled: the lead simply goes without tags
  }
}

/**
 * Keeps the tags of the visit's landing URL for the browser session: the first page shown in a
 * tab decides, later pages (often without the tags) do not overwrite them.
 */
export function rememberVisitTags(search: string, storage = sessionStore()): void {
  try {
    if (!storage || storage.getItem(VISIT_TAGS_KEY) !== null) return
    storage.setItem(VISIT_TAGS_KEY, JSON.stringify(visitTagsOf(search) ?? {}))
  } catch {
    // quota or privacy mode: nothing to keep
  }
}

/** The tags kept by rememberVisitTags, or null when the landing URL had none. */
function rememberedVisitTags(storage = sessionStore()): VisitTags | null {
  try {
    const raw = storage?.getItem(VISIT_TAGS_KEY)
    if (!raw) return null
    return visitTagsOf(new URLSearchParams(JSON.parse(raw) as Record<string, string>).toString())
  } catch {
    return null
  }
}

/** Where the form is being sent from, as the source of the lead. */
export function currentLeadSource(): LeadSource {
  if (typeof location === 'undefined') return {}
  const utm = rememberedVisitTags()
  return {
    sourceUrl: `${location.pathname}${location.search}`.slice(0, LEAD_SOURCE_LIMITS.sourceUrl),
    ...(utm ? { utm } : {}),
  }
}
