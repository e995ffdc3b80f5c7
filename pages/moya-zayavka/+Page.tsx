// https://vike.dev/Page — the request list: its lines, the total and the lead form that sends them.
// Plain forms throughout, so it works without JavaScript (docs/decisions/041-request-list.md).
import { useContext } from 'react'
import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import { Island } from '../../src/islands/Island'
import { RequestListPanel } from '../../src/lead/RequestListPanel'
import { EMPTY_LEAD_FORM, LEAD_FAILURE_TEXT } from '../../src/lead/lead-form-state'
import { LeadSettingsContext } from '../../src/lead/lead-settings'
import { REQUEST_LIST_TEXTS } from '../../src/lead/request-list-view'
import type { Data } from './+data'

export function Page() {
  const { view, startedAt, idempotencyKey } = useData<Data>()
  const { leadFormState, requestListNotice, urlParsed } = usePageContext()
  const settings = useContext(LeadSettingsContext)
  const state =
    leadFormState ??
    (urlParsed.search.oshibka ? { values: EMPTY_LEAD_FORM, errors: {}, failure: LEAD_FAILURE_TEXT } : null)
  return (
    <div className="container request-page">
      <h1>{REQUEST_LIST_TEXTS.title}</h1>
      <Island
        name="request-list"
        component={RequestListPanel}
        props={{ settings, view, startedAt, idempotencyKey, initialState: state, notice: requestListNotice ?? null }}
      />
    </div>
  )
}
