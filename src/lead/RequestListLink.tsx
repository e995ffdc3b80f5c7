import { useEffect, useSyncExternalStore } from 'react'
import { listenToCardForms } from './add-to-list'
import { PATHS } from '../site/paths'
import { requestListCount, requestListOfCookies } from './request-list'
import { REQUEST_LIST_EVENT, REQUEST_LIST_TEXTS } from './request-list-view'

function subscribe(onChange: () => void): () => void {
  window.addEventListener(REQUEST_LIST_EVENT, onChange)
  // Another tab may have changed the list: read it again when this one is shown.
  window.addEventListener('pageshow', onChange)
  document.addEventListener('visibilitychange', onChange)
  return () => {
    window.removeEventListener(REQUEST_LIST_EVENT, onChange)
    window.removeEventListener('pageshow', onChange)
    document.removeEventListener('visibilitychange', onChange)
  }
}

const countNow = () => requestListCount(requestListOfCookies(document.cookie))

/**
 * The header's «Моя заявка» with the number of lines. The count is read from the cookie in the
 * browser only: the server's HTML has the link without it, so every visitor gets the same cached
 * page (docs/decisions/041-request-list.md). It also sends the cards' «В заявку» in place.
 */
export function RequestListLink() {
  const count = useSyncExternalStore(subscribe, countNow, () => 0)
  // The cards' plain «В заявку» forms are sent in place once the page runs (one listener for all).
  useEffect(listenToCardForms, [])
  return (
    <a className="header__list" href={PATHS.requestList}>
      {REQUEST_LIST_TEXTS.title}
      {count > 0 && (
        <span className="header__list-count" aria-label={`товаров: ${count}`}>
          {count}
        </span>
      )}
    </a>
  )
}
