// The fetch the Node tools hand to the isomorphic client (src/api/http-client.ts): undici's, with
// keep-alive pools and its FormData. Node only, so it lives here and never in src/ (the browser's).
import * as undici from 'undici'
import type { FetchInit, FetchLike, FetchResponse } from '../../src/api/http-client'

export { undiciFetch }
export type { UndiciFetchOptions }

interface UndiciFetchOptions {
  /** An undici Agent or Pool (keep-alive, connection limits); undici's global dispatcher otherwise. */
  readonly dispatcher?: undici.Dispatcher
}

/**
 * A fetch for `createHttpClient`, on undici.
 *
 * A FormData built with the global class is copied into undici's own FormData first: undici 7's
 * fetch recognises only its own class and would otherwise send the text "[object FormData]"
 * (nodejs/undici#5016).
 *
 * @example
 * const client = createHttpClient({ baseUrl: 'http://127.0.0.1:3000', fetch: await undiciFetch() })
 */
// Async as it was when undici was loaded on first call: callers await it.
async function undiciFetch(options: UndiciFetchOptions = {}): Promise<FetchLike> {
  return async (url: string, init: FetchInit): Promise<FetchResponse> => {
    let body: unknown = init.body
    if (isForeignFormData(body, undici.FormData)) {
      const copy = new undici.FormData()
      for (const [name, value] of body.entries()) copy.append(name, value)
      body = copy
    }
    return undici.fetch(url, {
      method: init.method,
      headers: init.headers,
      body: body as undici.RequestInit['body'],
      signal: init.signal,
      dispatcher: options.dispatcher,
    })
  }
}

function isForeignFormData(value: unknown, own: typeof undici.FormData): value is FormData {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof own) &&
    (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'FormData' &&
    typeof (value as FormData).entries === 'function'
  )
}
