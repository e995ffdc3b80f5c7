import type * as Undici from 'undici'
import type { FetchInit, FetchLike, FetchResponse } from './http-client'

export { undiciFetch }
export type { UndiciFetchOptions }

interface UndiciFetchOptions {
  /** An undici Agent or Pool (keep-alive, connection limits); undici's global dispatcher otherwise. */
  readonly dispatcher?: Undici.Dispatcher
}

// A variable specifier keeps bundlers from following the import: the browser bundle never
// contains undici, even when this file is reachable from client code.
const UNDICI = 'undici'

/**
 * Loads undici on first call (Node only) and returns a fetch for `createHttpClient`.
 *
 * A FormData built with the global class is copied into undici's own FormData first: undici 7's
 * fetch recognises only its own class and would otherwise send the text "[object FormData]"
 * (nodejs/undici#5016).
 *
 * @example
 * const client = createHttpClient({ baseUrl: 'http://127.0.0.1:3000', fetch: await undiciFetch() })
 */
async function undiciFetch(options: UndiciFetchOptions = {}): Promise<FetchLike> {
  const undici = (await import(/* @vite-ignore */ UNDICI)) as typeof Undici
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
      body: body as Undici.RequestInit['body'],
      signal: init.signal,
      dispatcher: options.dispatcher,
    })
  }
}

function isForeignFormData(value: unknown, own: typeof Undici.FormData): value is FormData {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof own) &&
    (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'FormData' &&
    typeof (value as FormData).entries === 'function'
  )
}
