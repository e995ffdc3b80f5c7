// The only inline scripts the site writes into its pages. The Content-Security-Policy allows
// exactly these by their hash (server/site/csp.ts), computed from this same text; any other inline
// script in a page (an HTML injection, say) is blocked.

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
          { not: { href_matches: '/api/*' } },
          { not: { href_matches: '/media/*' } },
          { not: { selector_matches: '[download]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
})

/**
 * Yandex Metrika's own loader, only when METRIKA_ID is set (config validates it as digits, so it
 * is safe inline). `ym` queues calls until tag.js arrives; the lead form calls
 * `ym(id, 'reachGoal', 'lead')` only after a 201 (docs/decisions/007-lead-intake.md).
 */
export function metrikaSnippet(id: number): string {
  return (
    `(function(m,e,t,r,i,k,a){m[i]=m[i]||function(){(m[i].a=m[i].a||[]).push(arguments)};m[i].l=1*new Date();` +
    `for(var j=0;j<e.scripts.length;j++){if(e.scripts[j].src===r){return}}` +
    `k=e.createElement(t),a=e.getElementsByTagName(t)[0],k.async=1,k.src=r,a.parentNode.insertBefore(k,a)})` +
    `(window,document,'script','https://mc.yandex.ru/metrika/tag.js','ym');` +
    `ym(${Number(id)},'init',{clickmap:true,trackLinks:true,accurateTrackBounce:true});`
  )
}
