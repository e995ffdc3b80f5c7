// https://vike.dev/Head — tags shared by every page.
import { usePageContext } from 'vike-react/usePageContext'
import faviconUrl from './assets/favicon.svg'

export function Head() {
  const { publicSettings } = usePageContext()
  const metrikaId = publicSettings?.metrikaId ?? null
  return (
    <>
      <link rel="icon" href={faviconUrl} type="image/svg+xml" />
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
      {metrikaId !== null && <script dangerouslySetInnerHTML={{ __html: metrikaSnippet(metrikaId) }} />}
    </>
  )
}

/**
 * Links between public pages load whole pages (docs/decisions/021-islands.md): browsers that know
 * speculation rules fetch a page while the pointer rests on its link or is pressed on it, so the
 * click finds it ready (https://developer.chrome.com/docs/web-platform/prerender-pages). Never the
 * API or media; the back office is linked from no public page, so it is not named here either.
 */
const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { href_matches: '/*' },
          { not: { href_matches: '/api/*' } },
          { not: { href_matches: '/media/*' } },
          { not: { selector_matches: '[download], [data-native]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
})

// Yandex Metrika's own loader, only when METRIKA_ID is set (config validates it as digits, so it
// is safe inline). `ym` queues calls until tag.js arrives; the lead form calls
// `ym(id, 'reachGoal', 'lead')` only after a 201 (docs/decisions/007-lead-intake.md).
function metrikaSnippet(id: number): string {
  return (
    `(function(m,e,t,r,i,k,a){m[i]=m[i]||function(){(m[i].a=m[i].a||[]).push(arguments)};m[i].l=1*new Date();` +
    `for(var j=0;j<e.scripts.length;j++){if(e.scripts[j].src===r){return}}` +
    `k=e.createElement(t),a=e.getElementsByTagName(t)[0],k.async=1,k.src=r,a.parentNode.insertBefore(k,a)})` +
    `(window,document,'script','https://mc.yandex.ru/metrika/tag.js','ym');` +
    `ym(${Number(id)},'init',{clickmap:true,trackLinks:true,accurateTrackBounce:true});`
  )
}
