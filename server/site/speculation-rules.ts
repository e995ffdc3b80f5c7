// The pages' speculation rules, by header (docs/decisions/046-speculation-rules-header.md): every
// public page's HTML answer names them in `Speculation-Rules` and the browser fetches them from
// here, instead of each page carrying them in an inline <script type="speculationrules">.
import type { FastifyInstance } from 'fastify'
import { API_PREFIX, PATHS } from '../../src/site/paths'

/**
 * Links between public pages load whole pages (docs/decisions/021-islands.md): browsers that know
 * speculation rules fetch a page while the pointer rests on its link or is pressed on it, so the
 * click finds it ready (https://developer.chrome.com/docs/web-platform/prerender-pages). Never the
 * API, media or a download; the back office is linked from no public page, so it is not named here.
 */
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { href_matches: '/*' },
          { not: { href_matches: `${API_PREFIX}/*` } },
          { not: { href_matches: `${PATHS.media}*` } },
          { not: { selector_matches: '[download]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
})

/** The header of a page's answer: a structured-field list of one string, the rules' URL. */
export const SPECULATION_RULES_HEADER = { 'speculation-rules': `"${PATHS.speculationRules}"` } as const

/** The only type browsers accept the rules in; sent as bytes, so Fastify adds no charset to it. */
const RULES_TYPE = 'application/speculationrules+json'
const RULES_BODY = Buffer.from(SPECULATION_RULES)

/**
 * Whether a page's HTML answer names the rules: every page does unless its config says
 * `speculationRules: false` (the back office, whose head never had them).
 */
export function carriesSpeculationRules(config: Pick<Vike.Config, 'speculationRules'>): boolean {
  return config.speculationRules !== false
}

export async function speculationRulesRoutes(app: FastifyInstance) {
  app.get(PATHS.speculationRules, async (_request, reply) => {
    // The rules change only with a build, under the same name: a browser keeps them a day, as it
    // keeps /favicon.ico. A day-old copy after a deploy only prefetches by yesterday's rules, which
    // costs at worst a useless prefetch; a name with the content's hash would need every cached
    // page (kept with its headers) to change with it, for no gain at this size (about 230 bytes).
    reply.type(RULES_TYPE).header('cache-control', 'public, max-age=86400')
    return RULES_BODY
  })
}
