import { createContext, useContext } from 'react'
import type { AdminApi } from '../../../src/admin/admin-api'

export interface AdminSession {
  readonly api: AdminApi
  /** The site's time zone (SITE_TIMEZONE): dates are shown in it, as in e-mails and the CSV. */
  readonly timeZone: string
}

/** What every back-office screen gets from the layout once signed in. */
export const AdminContext = createContext<AdminSession | null>(null)

function useSession(): AdminSession {
  const session = useContext(AdminContext)
  if (!session) throw new Error('outside the back-office layout')
  return session
}

export function useAdminApi(): AdminApi {
  return useSession().api
}

export function useTimeZone(): string {
  return useSession().timeZone
}
