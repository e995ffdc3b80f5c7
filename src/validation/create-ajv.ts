import { _, Ajv, type KeywordCxt, type Options } from 'ajv'
import addFormats from 'ajv-formats'
// ajv's helper for a pattern in generated code (its name is not a React hook's)
import { usePattern as patternRef } from 'ajv/dist/vocabularies/code.js'
import { formats } from './formats'
import { RUBLES_PATTERN } from '../format/money'
import { FORBIDDEN_CHARACTERS, TEXT_KEYWORD, type TextKind } from './plain-text'

/** A sum of rubles with at most two decimals: a whole number of kopecks (src/format/money.ts). */
export const KOPECKS_KEYWORD = 'kopecks'

/**
 * An ajv instance with the project's fixed options. The same factory serves the browser form and
 * the Fastify route, so both judge a lead identically:
 * - `allErrors`: every failing field is reported at once (docs/contract.md §4);
 * - `verbose`: errors carry the failing value, which the message table needs to treat null and
 *   blank strings as «Поле обязательно»;
 * - no coercion, no defaults, no silent removal: Fastify's own defaults would quietly drop
 *   extra fields (`removeAdditional: true`) where the spec wants them rejected;
 * - the `text` keyword (src/validation/plain-text.ts): no control characters in stored text;
 * - the `kopecks` keyword: a number of rubles with at most two decimals, read from its decimal text.
 *
 * `allErrors` costs time on huge bodies, so the server must keep its body size limit small.
 * Compile each schema once and reuse the validator: compiling is the expensive part.
 */
export function createAjv(options: Pick<Options, 'code'> = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    verbose: true,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    ...options,
  })
  addFormats(ajv)
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format)
  // A regular expression test, so ajv's standalone code (the generated lead validators) carries
  // the check without any ajv runtime.
  ajv.addKeyword({
    keyword: TEXT_KEYWORD,
    type: 'string',
    schemaType: 'string',
    metaSchema: { enum: Object.keys(FORBIDDEN_CHARACTERS) },
    code(cxt: KeywordCxt) {
      const pattern = patternRef(cxt, FORBIDDEN_CHARACTERS[cxt.schema as TextKind])
      cxt.fail(_`${pattern}.test(${cxt.data})`)
    },
    error: {
      message: 'must not contain control characters',
      params: ({ schemaCode }) => _`{kind: ${schemaCode}}`,
    },
  })
  ajv.addKeyword({
    keyword: KOPECKS_KEYWORD,
    type: 'number',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const pattern = patternRef(cxt, RUBLES_PATTERN.source)
      cxt.fail(_`${cxt.schema} && !${pattern}.test(String(${cxt.data}))`)
    },
    error: { message: 'must be a whole number of kopecks' },
  })
  return ajv
}
