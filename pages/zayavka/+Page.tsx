// https://vike.dev/Page — the lead form as a plain page: where «Оставить заявку» leads without
// JavaScript. It posts urlencoded to /api/feedback (303 to /spasibo); with JavaScript it sends
// JSON like the dialog does.
import { useContext } from 'react'
import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import { Island } from '../../src/islands/Island'
import { LeadForm } from '../../src/lead/LeadForm'
import { EMPTY_LEAD_FORM, LEAD_FAILURE_TEXT, LEAD_FORM_TITLE } from '../../src/lead/lead-form-state'
import { LeadSettingsContext } from '../../src/lead/lead-settings'
import type { Data } from './+data'
import './zayavka.css'

export function Page() {
  const { startedAt, idempotencyKey, product } = useData<Data>()
  const { leadFormState, urlParsed } = usePageContext()
  const settings = useContext(LeadSettingsContext)
  // ?oshibka=1: the server could not even render the form back; values are not in the URL.
  const state =
    leadFormState ??
    (urlParsed.search.oshibka ? { values: EMPTY_LEAD_FORM, errors: {}, failure: LEAD_FAILURE_TEXT } : null)
  return (
    <div className="container lead-page">
      <h1>{LEAD_FORM_TITLE}</h1>
      {product && <p className="lead-product">{`Товар: ${product.title}`}</p>}
      <Island
        name="lead-form"
        component={LeadForm}
        props={{
          settings,
          startedAt,
          idempotencyKey,
          initialState: state,
          ...(product ? { lines: `${product.id}x1` } : {}),
        }}
      />
    </div>
  )
}
