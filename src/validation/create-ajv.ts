import { Ajv, type Options } from 'ajv'
import addFormats from 'ajv-formats'
import { formats } from './formats'

/**
 * An ajv instance with the project's fixed options. The same factory serves the browser form and
 * the Fastify route, so both judge a lead identically:
 * - `allErrors`: every failing field is reported at once (docs/contract.md §4);
 * - `verbose`: errors carry the failing value, which the message table needs to treat null and
 *   blank strings as «Поле обязательно»;
 * - no coercion, no defaults, no silent removal: Fastify's own defaults would quietly drop
 *   extra fields (`removeAdditional: true`) where the spec wants them rejected.
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
  return ajv
}
