import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { formatTime } from '../../../src/format/format-date'
import type { AdminApi, LeadsQuery } from '../../../src/admin/admin-api'
import type { AdminLeadPage as LeadsPage } from '../../../src/admin/admin-leads'

/** How often the inbox asks whether a lead came in. */
const POLL_MS = 10_000

interface LeadsState {
  readonly page: LeadsPage | null
  readonly loading: boolean
  readonly error: string | null
  /** Polite news for the live region: a new lead, a failed refresh. */
  readonly notice: string
  readonly reload: () => void
}

/**
 * The inbox's list for a query, refreshed when the newest lead id changes (polling: the owner
 * sees a new lead without reloading) and after each change the owner makes.
 */
export function useLeads(api: AdminApi, query: LeadsQuery): LeadsState {
  const [version, setVersion] = useState(0)
  const request = useMemo(() => ({ query, version }), [query, version])
  // The answer remembers its request: the list is loading while they differ.
  const [answer, setAnswer] = useState<{ request: object; page: LeadsPage | null; error: string | null } | null>(null)
  const [page, setPage] = useState<LeadsPage | null>(null)
  const [notice, setNotice] = useState('')
  const latest = useRef<number | null | undefined>(undefined)
  const reload = useCallback(() => setVersion((v) => v + 1), [])

  useEffect(() => {
    const controller = new AbortController()
    api.leads(request.query, controller.signal).then(
      (result) => {
        setPage(result)
        setAnswer({ request, page: result, error: null })
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return
        const error = failure instanceof ApiError ? failure.message : 'Не удалось загрузить заявки'
        setAnswer({ request, page: null, error })
      },
    )
    return () => controller.abort()
  }, [api, request])

  useEffect(() => {
    const controller = new AbortController()
    async function poll() {
      try {
        const id = await api.latestLeadId(controller.signal)
        const known = latest.current
        latest.current = id
        if (known !== undefined && id !== known) {
          setNotice(`Поступила новая заявка (${formatTime(new Date())})`)
          reload()
        }
      } catch {
        // A missed poll is retried on the next tick; a 401 has already signed the owner out.
      }
    }
    void poll()
    const timer = window.setInterval(() => void poll(), POLL_MS)
    return () => {
      controller.abort()
      window.clearInterval(timer)
    }
  }, [api, reload])

  return { page, loading: answer?.request !== request, error: answer?.error ?? null, notice, reload }
}
