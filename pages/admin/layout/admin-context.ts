import { createContext, useContext } from 'react'
import type { AdminApi } from '../../../src/admin/admin-api'

/** What every back-office screen gets from the layout: the API with a live session. */
export const AdminContext = createContext<AdminApi | null>(null)

export function useAdminApi(): AdminApi {
  const api = useContext(AdminContext)
  if (!api) throw new Error('useAdminApi: outside the back-office layout')
  return api
}
