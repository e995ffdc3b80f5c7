// The only inline scripts the site writes into its pages. The Content-Security-Policy allows
// exactly these by their hash (server/http/csp.ts), computed from this same text; any other inline
// script in a page (an HTML injection, say) is blocked.
import { API_PREFIX, PATHS } from './paths'

/**
 * Links between public pages load whole pages (docs/decisions/021-islands.md): browsers that know
 * speculation rules fetch a page while the pointer rests on its link or is pressed on it, so the
 * click finds it ready (https://developer.chrome.com/docs/web-platform/prerender-pages). Never the
 * API or media; the back office is linked from no public page, so it is not named here either.
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
