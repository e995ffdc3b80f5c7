// The back office's «Персональные данные» calls (docs/contract.md §7, "Personal data"): operator
// details, documents, retention status, the audit log and a person's data on request.
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'

export type OperatorField = 'name' | 'inn' | 'address'

export interface PrivacyOverview {
  readonly operator: {
    readonly values: Readonly<Record<OperatorField, string>>
    readonly fromEnv: readonly OperatorField[]
    readonly missing: readonly OperatorField[]
  }
  readonly documents: ReadonlyArray<{
    readonly kind: string
    readonly title: string
    readonly slug: string
    readonly url: string | null
    readonly recordId: number | null
    readonly version: string | null
  }>
  readonly retention: {
    readonly days: number
    readonly nextRunAt: string | null
    readonly lastRunAt: string | null
    readonly lastResult: { readonly leads: number; readonly deliveries: number; readonly cutoff: string } | null
  }
}

export interface SubjectLead {
  readonly id: number
  readonly createdAt: string
  readonly username: string
  readonly phone: string
  readonly email: string
}

export interface SubjectData {
  readonly leads: readonly SubjectLead[]
  readonly deliveries: readonly unknown[]
  readonly cookieChoices: readonly unknown[]
  readonly deadLetters: readonly unknown[]
  readonly more: boolean
}

export interface AuditEntry {
  readonly id: number
  readonly at: string
  readonly actor: string
  readonly action: string
  readonly detail: Record<string, unknown>
}

export const COOKIE_CHOICES_CSV_URL = ADMIN_API_PATHS.cookieChoicesCsv

/** The person's file: a plain download that carries the session cookie. */
export function subjectFileUrl(q: string): string {
  return `${ADMIN_API_PATHS.subjectFile}?q=${encodeURIComponent(q)}`
}

export function createPrivacyApi() {
  const client = createHttpClient({ baseUrl: '', timeoutMs: 60_000 })
  return {
    async overview(): Promise<PrivacyOverview> {
      return (await client.request<{ data: PrivacyOverview }>('GET', ADMIN_API_PATHS.privacy)).data
    },
    async saveOperator(values: Partial<Record<OperatorField, string>>): Promise<void> {
      await client.request('PUT', ADMIN_API_PATHS.privacyOperator, { json: values })
    },
    async audit(): Promise<AuditEntry[]> {
      return (await client.request<{ data: AuditEntry[] }>('GET', ADMIN_API_PATHS.privacyAudit)).data
    },
    async findSubject(q: string): Promise<SubjectData> {
      return (await client.request<{ data: SubjectData }>('GET', ADMIN_API_PATHS.subject, { query: { q } })).data
    },
    async eraseSubject(q: string, mode: 'delete' | 'anonymise') {
      const body = await client.request<{ data: { leads: number; cookieChoices: number; deliveries: number } }>(
        'POST',
        ADMIN_API_PATHS.eraseSubject,
        { json: { q, mode } },
      )
      return body.data
    },
  }
}

export type PrivacyApi = ReturnType<typeof createPrivacyApi>
