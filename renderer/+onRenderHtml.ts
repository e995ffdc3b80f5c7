// https://vike.dev/onRenderHtml — in place of vike-react's (whose onRenderClient and other hooks
// stay): the page's document is made by renderer/document.ts, the function the server's direct path
// calls too (docs/decisions/037-one-document.md). A page with a setting that document does not make
// gets vike-react's own.
import { dangerouslySkipEscape } from 'vike/server'
import type { PageContextServer } from 'vike/types'
import { onRenderHtml as vikeReactOnRenderHtml } from 'vike-react/__internal/integration/onRenderHtml'
import { pageDocument } from './document'

/** Settings the browser applies on a client navigation: the only ones useConfig() values keep. */
const CLIENT_SETTINGS = ['title', 'lang', 'description']

export function onRenderHtml(pageContext: PageContextServer & { _configViaHook?: Record<string, unknown> }) {
  const document = pageDocument(pageContext)
  if ('unsupported' in document) return vikeReactOnRenderHtml(pageContext)
  // As vike-react does: useConfig() values the browser does not apply are not sent to it.
  const viaHook = pageContext._configViaHook
  if (viaHook) {
    for (const name of Object.keys(viaHook)) if (!CLIENT_SETTINGS.includes(name)) delete viaHook[name]
    if (Object.keys(viaHook).length === 0) delete pageContext._configViaHook
  }
  return dangerouslySkipEscape(document.pieces.join(''))
}
