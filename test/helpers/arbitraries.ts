// fast-check generators of hostile input, shared by the property tests (inject) and the fuzzer
// (`npm run fuzz`, real sockets): lead request bodies and model-API query URLs.
import fc from 'fast-check'
import { FILTER_OPERATORS } from '../../server/model-api/query-where'
import { stringifyQuery } from '../../src/api/query-string'

// Leads that are sometimes valid and often nearly so: the interesting edge of the schema.
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'Иван', '8 999 123-45-67', '+7 (999) 123-45-67', 'a@b.ru', 'иван@пример.рф'),
  fc.string({ minLength: 180, maxLength: 420 }),
)
const nearLead = fc.record(
  {
    username: fc.oneof(text, fc.constant(null), fc.integer()),
    phone: fc.oneof(text, fc.constant(null)),
    email: fc.oneof(text, fc.emailAddress()),
    consent: fc.oneof(fc.constant(true), fc.boolean(), fc.constant('on')),
    website: fc.oneof(fc.constant(''), fc.string()),
    formStartedAt: fc.oneof(fc.nat(), fc.double(), fc.string()),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
)
/** Leads a person could send: Cyrillic names, complete Russian phones in their usual spellings. */
const validLead = fc.record({
  username: fc.constantFrom('Иван', 'Пётр Ильич', 'Анна-Мария', "Д'Артаньян", 'Ёлка Зелёная'),
  phone: fc
    .tuple(
      fc.constantFrom('+7 ', '8', '+7', '7 '),
      fc.integer({ min: 900, max: 999 }),
      fc.integer({ min: 0, max: 9_999_999 }),
    )
    .map(([prefix, code, rest]) => {
      const digits = String(rest).padStart(7, '0')
      return `${prefix}(${code}) ${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`
    }),
  email: fc.emailAddress(),
  consent: fc.constant(true),
})

// Every control character and Unicode edge a text can carry: C0, DEL, C1, U+2028/2029, lone
// surrogates, the BOM, direction and zero-width marks, 4-byte characters and a joined emoji.
const EDGE_CHARACTERS = [
  ...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)),
  '\u007f',
  ...Array.from({ length: 32 }, (_, code) => String.fromCharCode(0x80 + code)),
  '\u2028',
  '\u2029',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ufeff',
  '\u200b',
  '\u200e',
  '\u200f',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufffd',
  '😀',
  '𝕏',
  '👨‍👩‍👧',
]
const edgeText = fc
  .array(fc.oneof(fc.constantFrom(...EDGE_CHARACTERS), fc.constantFrom('Иван', 'a', ' ', '+7', '@')), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(''))
/** Texts of 4-byte (or 2-byte) characters exactly at a field's limit, and one over. */
const atLimit = fc
  .tuple(fc.constantFrom(190, 191, 400, 401, 500, 501), fc.constantFrom('😀', '𝕏', 'я'))
  .map(([length, char]) => char.repeat(length))
/** A valid value with one edge character put somewhere inside it. */
const withEdge = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.constantFrom(...EDGE_CHARACTERS), fc.nat())
    .map(([text, char, at]) => text.slice(0, at % (text.length + 1)) + char + text.slice(at % (text.length + 1)))
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined })
/** Leads whose fields carry the edges: many refused (400), those made only of allowed ones stored. */
export const hostileLead = fc
  .record({
    username: fc.oneof(
      validLead.map((l) => l.username),
      withEdge(validLead.map((l) => l.username)),
      edgeText,
      atLimit,
    ),
    phone: fc.oneof(
      validLead.map((l) => l.phone),
      withEdge(validLead.map((l) => l.phone)),
      edgeText,
    ),
    email: fc.oneof(fc.constant('ivan@example.ru'), withEdge(fc.constant('ivan@example.ru')), atLimit),
    consent: fc.constant(true),
    sourceUrl: maybe(
      fc.oneof(
        fc.constant('/'),
        edgeText.map((text) => `/${text}`),
        atLimit.map((text) => `/${text}`),
      ),
    ),
    utm: maybe(fc.record({ utm_source: fc.oneof(fc.constant('yandex'), edgeText, atLimit) }, { requiredKeys: [] })),
  })
  .map((lead) => JSON.parse(JSON.stringify(lead)) as Record<string, unknown>)

export const anyLeadBody = fc.oneof(validLead, fc.anything(), fc.object(), nearLead, fc.jsonValue(), hostileLead)

export const leadContentType = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json\t; x=y',
  '',
)

const MULTIPART_BOUNDARY = 'vitrinaBoundary'
const multipartField = fc.tuple(
  fc.oneof(
    fc.constant('data'),
    fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !/["\r\n]/.test(s)),
  ),
  fc.oneof(
    anyLeadBody.map((v) => JSON.stringify(v) ?? ''),
    fc.string(),
  ),
)
/** Multipart bodies with random fields, sometimes cut off in the middle of a part header. */
export const multipartLead = fc
  .tuple(fc.array(multipartField, { maxLength: 4 }), fc.boolean())
  .map(([fields, truncate]) => {
    const b = MULTIPART_BOUNDARY
    let body = fields
      .map(([name, value]) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('')
    body += truncate ? `--${b}\r\nContent-Disposition: form-da` : `--${b}--\r\n`
    return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${b}` } }
  })

export interface RawRequest {
  readonly payload: string
  readonly headers: Record<string, string>
}

/** The hostile leads as the no-JS form posts them: urlencoded, consent ticked. */
const hostileForm = hostileLead.map((lead): RawRequest => ({
  payload: new URLSearchParams(
    Object.entries({ ...lead, consent: 'on' }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  ).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
}))

/** Any lead request a client could send: JSON values, raw text under any type, multipart. */
export const anyLeadRequest: fc.Arbitrary<RawRequest> = fc.oneof(
  anyLeadBody.map((value): RawRequest => ({
    payload: JSON.stringify(value) ?? '',
    headers: { 'content-type': 'application/json' },
  })),
  hostileForm,
  fc
    .tuple(fc.string({ maxLength: 300 }), leadContentType)
    .map(([payload, type]): RawRequest => ({ payload, headers: type ? { 'content-type': type } : {} })),
  multipartLead,
)

export const QUERY_MODELS = [
  'structure',
  'index',
  'product',
  'sliderItems',
  'advantages',
  'orderType',
  'feedback',
  'Feedback',
  'nope',
]
const QUERY_FIELDS = [
  'id',
  'parentId',
  'typeId',
  'title',
  'urlFull',
  'sort',
  'published',
  'image',
  'price',
  'structureId',
  'children',
  'parent',
  'product',
  'index',
  'sliderItems',
  'advantages',
  'foo',
  '__proto__',
  'constructor',
]
// The API's own operators, and some of Prisma's it does not know.
const OPS = [...FILTER_OPERATORS, 'AND', 'OR', 'NOT', 'some', 'mode']
const key = fc.oneof(
  fc.constantFrom(...QUERY_FIELDS, ...OPS, 'select', 'where', 'orderBy', 'take', 'skip'),
  fc.string({ maxLength: 6 }),
)
const leaf = fc.oneof(
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constant(null),
  fc.constantFrom('asc', 'desc', 'index', '%', '_'),
)
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
  ),
}))
/** Prisma-style query objects built from real and unknown fields, operators and values. */
export const modelQuery = fc.record(
  {
    select: fc.option(fc.dictionary(fc.constantFrom(...QUERY_FIELDS), fc.oneof(fc.boolean(), tree), { maxKeys: 4 }), {
      nil: undefined,
    }),
    where: fc.option(fc.dictionary(key, tree, { maxKeys: 4 }), { nil: undefined }),
    orderBy: fc.option(tree, { nil: undefined }),
    take: fc.option(fc.oneof(fc.integer({ min: -5, max: 1000 }), leaf), { nil: undefined }),
    skip: fc.option(fc.oneof(fc.integer({ min: -5, max: 1000 }), leaf), { nil: undefined }),
  },
  { requiredKeys: [] },
)

/** Model-API read URLs: structured queries on any model, and arbitrary text as the query. */
export const modelQueryUrl: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom('', 'many/', 'provider/'), fc.constantFrom(...QUERY_MODELS), modelQuery)
    .map(([prefix, model, query]) => `/api/${prefix}${model}?${stringifyQuery({ query })}`),
  fc
    .tuple(
      fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      ),
      fc.option(fc.string({ maxLength: 5 })),
    )
    .map(([query, ttl]) => `/api/many/structure?${stringifyQuery({ query, ttl: ttl ?? undefined })}`),
)
