// The back office's calls (the contract between the pages and the server is docs/contract.md):
// the session, the leads inbox, and the generic model API for content, all over one HTTP client
// that sends the session cookie and never a bearer token.
import { ApiError, createHttpClient, type HttpClient } from '../api/http-client'
import { createModelApi, type ModelApi } from '../api/model-api'
import type { AdminDeadLetter, AdminLead, AdminLeadPage, AdminLeadStatus, LeadTab } from './admin-leads'
import type { PasswordChange, SetupRequest, SignInWith } from './admin-password'
import { ADMIN_API_PATHS } from '../site/paths'

export interface LeadsQuery {
  readonly tab: LeadTab
  readonly q: string
  /** The previous page's `next.after`; absent for the first page */
  readonly after?: string
  readonly pageSize: number
}

/** A record as the content tree lists it (GET /api/admin/content/children). */
export interface TreeRecord {
  readonly id: number
  readonly parentId: number | null
  readonly typeId: string
  readonly title: string
  readonly urlFull: string
  readonly sort: number
  readonly published: boolean
  readonly status: number | null
  /** Records directly under it */
  readonly children: number
}

/** A page of a record's children, their number, and where the next page starts (null: none left). */
export interface TreePage {
  readonly data: TreeRecord[]
  readonly total: number
  readonly next: { readonly skip: number } | null
}

export interface AdminApi {
  readonly models: ModelApi
  /** A page of the children of `parentId` (null: the top level), in the site's order. */
  children(parentId: number | null, skip: number, take?: number, signal?: AbortSignal): Promise<TreePage>
  /** Moves a record under another parent; `keepUrl: false` gives it the new parent's path. */
  moveRecord(id: number, parentId: number, keepUrl: boolean): Promise<{ urlFull: string }>
  /** Moves a record one place among its siblings. */
  orderRecord(id: number, direction: 'up' | 'down'): Promise<void>
  leads(query: LeadsQuery, signal?: AbortSignal): Promise<AdminLeadPage>
  latestLeadId(signal?: AbortSignal): Promise<number | null>
  updateLead(id: number, change: { status?: AdminLeadStatus; spam?: false; note?: string | null }): Promise<AdminLead>
  resendLead(id: number): Promise<AdminLead>
  deadLetters(signal?: AbortSignal): Promise<{ data: AdminDeadLetter[]; total: number }>
  /** Records by title, артикул (any form) or the beginning of their URL: at most 20 */
  searchRecords(q: string, signal?: AbortSignal): Promise<FoundRecord[]>
  /** How many of the demo shop's products are left */
  demoProductsLeft(signal?: AbortSignal): Promise<number>
  /** «Убрать демо-магазин»: what went, and the demo sections kept for the owner's records in them */
  removeDemoShop(): Promise<DemoRemoval>
  /** «Сменить пароль»: the other sessions end; rejects with 400/403 field errors (`current`, `password`) */
  changePassword(change: PasswordChange): Promise<void>
}

export interface DemoRemoval {
  readonly products: number
  readonly sections: number
  readonly slides: number
  readonly advantages: number
  readonly kept: readonly string[]
}

/** A record the back office's search found (GET /api/admin/search) */
export interface FoundRecord {
  readonly id: number
  readonly title: string
  readonly urlFull: string
  readonly typeId: string
  readonly published: boolean
}

/** Where «Скачать CSV» points: a plain download that carries the session cookie. */
export const LEADS_CSV_URL = ADMIN_API_PATHS.leadsCsv

const SESSION_PATH = ADMIN_API_PATHS.session

/** The page's own origin; the browser adds the cookie and, for writes, the Origin header. */
function sameOriginClient(): HttpClient {
  return createHttpClient({ baseUrl: '', timeoutMs: 30_000 })
}

export interface SessionInfo {
  readonly expiresAt: string
  /** The site's time zone (SITE_TIMEZONE): the owner reads dates in it. */
  readonly timeZone: string
  /** What signs in: «Сменить пароль» cannot change ADMIN_PASSWORD */
  readonly signInWith: SignInWith
}

/** The live session, or null on 401. Other failures (403 `not_configured`: no password yet, network) throw. */
export async function checkSession(): Promise<SessionInfo | null> {
  try {
    const body = await sameOriginClient().request<{ data: SessionInfo }>('GET', SESSION_PATH)
    return body.data
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

/** Signs in; rejects with ApiError (401 wrong secret, 429 too many attempts, 403 not configured). */
export async function signIn(secret: string): Promise<void> {
  await sameOriginClient().request('POST', SESSION_PATH, { json: { secret } })
}

/** Chooses the first password with the one-time link's token; the answer signs the browser in. */
export async function setUpPassword(request: SetupRequest): Promise<void> {
  await sameOriginClient().request('POST', ADMIN_API_PATHS.setup, { json: { ...request } })
}

export async function signOut(): Promise<void> {
  await sameOriginClient().request('DELETE', SESSION_PATH)
}

/**
 * The calls that need a session. A 401 from any of them means the session expired or was revoked:
 * `onUnauthorized` runs (the layout shows the sign-in form again) and the call still rejects.
 */
export function createAdminApi(onUnauthorized: () => void): AdminApi {
  const plain = sameOriginClient()
  const client: HttpClient = {
    async request(method, path, options) {
      try {
        return await plain.request(method, path, options)
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) onUnauthorized()
        throw error
      }
    },
  }
  return {
    models: createModelApi(client),
    children: (parentId, skip, take, signal) =>
      client.request<TreePage>('GET', ADMIN_API_PATHS.children, {
        query: { parentId: parentId ?? undefined, skip, take },
        signal,
      }),
    async moveRecord(id, parentId, keepUrl) {
      const body = await client.request<{ data: { urlFull: string } }>('POST', ADMIN_API_PATHS.moveRecord(id), {
        json: { parentId, keepUrl },
      })
      return body.data
    },
    async orderRecord(id, direction) {
      await client.request('POST', ADMIN_API_PATHS.orderRecord(id), { json: { direction } })
    },
    leads: (query, signal) =>
      client.request<AdminLeadPage>('GET', ADMIN_API_PATHS.leads, { query: { ...query }, signal }),
    async latestLeadId(signal) {
      const body = await client.request<{ data: { id: number | null } }>('GET', ADMIN_API_PATHS.latestLead, { signal })
      return body.data.id
    },
    async updateLead(id, change) {
      const body = await client.request<{ data: AdminLead }>('PATCH', ADMIN_API_PATHS.lead(id), { json: change })
      return body.data
    },
    async resendLead(id) {
      const body = await client.request<{ data: AdminLead }>('POST', ADMIN_API_PATHS.resendLead(id))
      return body.data
    },
    async deadLetters(signal) {
      return client.request<{ data: AdminDeadLetter[]; total: number }>('GET', ADMIN_API_PATHS.deadLetters, {
        signal,
      })
    },
    async demoProductsLeft(signal) {
      const body = await client.request<{ data: { products: number } }>('GET', ADMIN_API_PATHS.demoShop, { signal })
      return body.data.products
    },
    async removeDemoShop() {
      const body = await client.request<{ data: DemoRemoval }>('DELETE', ADMIN_API_PATHS.demoShop)
      return body.data
    },
    async changePassword(change) {
      await client.request('PUT', ADMIN_API_PATHS.password, { json: { ...change } })
    },
    async searchRecords(q, signal) {
      const body = await client.request<{ data: FoundRecord[] }>('GET', ADMIN_API_PATHS.search, {
        query: { q },
        signal,
      })
      return body.data
    },
  }
}
