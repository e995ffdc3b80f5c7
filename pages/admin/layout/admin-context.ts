import { createContext, useContext } from 'react'
import type { AdminApi } from '../../../src/admin/admin-api'
import type { SignInWith } from '../../../src/admin/admin-password'

export interface AdminSession {
  readonly api: AdminApi
  /** The site's time zone (SITE_TIMEZONE): dates are shown in it, as in e-mails and the CSV. */
  readonly timeZone: string
  /** What signs in now: ADMIN_PASSWORD, the owner's password or the token (none chosen yet) */
  readonly signInWith: SignInWith
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

export function useSignInWith(): SignInWith {
  return useSession().signInWith
}
