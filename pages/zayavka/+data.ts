// https://vike.dev/data — server-only: when the form was shown and its idempotency key, made on
// the server so the no-JS form carries them and the hydrated form keeps the same values.
import type { PageContextServer } from 'vike/types'

export type Data = { startedAt: number; idempotencyKey: string }

export function data(pageContext: PageContextServer): Data {
  const posted = pageContext.leadFormState
  return {
    startedAt: posted?.startedAt ?? Date.now(),
    idempotencyKey: posted?.idempotencyKey ?? crypto.randomUUID(),
  }
}
