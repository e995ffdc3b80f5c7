import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { FieldsRenderer } from '../components/form/FieldsRenderer'
import { clearLeadDraft, loadLeadDraft, saveLeadDraft } from './lead-draft'
import { LEAD_FORM_FIELDS } from './lead-fields'
import {
  EMPTY_LEAD_FORM,
  LEAD_ENDPOINT,
  LEAD_FAILURE_TEXT,
  LEAD_REUSED_FORM_TEXT,
  LEAD_SUBMIT_LABEL,
  type LeadFormState,
  type LeadFormValues,
} from './lead-form-state'
import { FORM_STARTED_AT_FIELD, IDEMPOTENCY_KEY_FIELD, LINES_FIELD } from './lead-schema'
import { ConsentField, FailureNote, Honeypot, SentNote } from './lead-form-parts'
import { parseRequestList } from './request-list'
import { REQUEST_LIST_EVENT } from './request-list-view'
import type { LeadSettings } from './lead-settings'
import { newIdempotencyKey, reachLeadGoal, submitLead } from './submit-lead'
import { currentLeadSource } from './lead-source'
import { validateLead } from './validate-lead'
import './lead.css'

export type LeadFormProps = {
  settings: LeadSettings
  /**
   * When the form was shown. The no-JS page passes the server's time (so the hidden field
   * hydrates unchanged); the dialog leaves it to the moment it mounts.
   */
  startedAt?: number
  /** The key of this form instance; the no-JS page passes one made on the server. */
  idempotencyKey?: string
  /** Values and messages the server sent back with a no-JS post it could not accept. */
  initialState?: LeadFormState | null
  /** Called after the lead was accepted (201 or a repeat of this form's key). */
  onSent?: () => void
  /** Show «Заявка отправлена» as a heading of the confirmation (a dialog shows it as its title). */
  sentHeading?: boolean
  /** Opens the consent text in place; without it the consent link is a plain link. */
  onOpenConsent?: (opener: HTMLElement) => void
  /**
   * Focus the first field on mount when its dialog holds the focus itself: the dialog could only
   * focus its frame while this form's code was still loading.
   */
  focusOnMount?: boolean
  /** What the lead asks for, in the request list's notation (`12x2.45x1`): sent as its lines */
  lines?: string
  /** Where the form posts, when not the plain intake (the request list's form adds `?spisok=1`) */
  endpoint?: string
}

type Status = 'editing' | 'sending' | 'failed' | 'sent'

function toCandidate(values: LeadFormValues) {
  return { username: values.username, phone: values.phone, email: values.email, consent: values.consent }
}

/**
 * The lead form of docs/contract.md §4. Controlled inputs with onSubmit + fetch (React 19's form actions
 * would reset the fields after a failure); without JavaScript the same markup posts urlencoded to
 * `/api/feedback`, which answers 303 to the thank-you page.
 *
 * Errors appear after the first submit attempt and follow the typing from then on; the server is
 * called only with a valid lead, once at a time, always with this form's idempotency key.
 */
export function LeadForm({
  settings,
  startedAt,
  idempotencyKey,
  initialState,
  onSent,
  sentHeading = true,
  onOpenConsent,
  focusOnMount,
  lines,
  endpoint = LEAD_ENDPOINT,
}: LeadFormProps) {
  const id = useId()
  // The dialog (client-only, no server-made key) continues an unsent draft of this tab.
  const keepsDraft = idempotencyKey === undefined && !initialState
  const [draft] = useState(() => (keepsDraft ? loadLeadDraft() : null))
  const [values, setValues] = useState<LeadFormValues>(initialState?.values ?? draft?.values ?? EMPTY_LEAD_FORM)
  const [submitted, setSubmitted] = useState(Boolean(initialState && Object.keys(initialState.errors).length > 0))
  const [serverErrors, setServerErrors] = useState<Record<string, string>>(initialState?.errors ?? {})
  const [status, setStatus] = useState<Status>(initialState?.failure ? 'failed' : 'editing')
  const [failure, setFailure] = useState(initialState?.failure ?? LEAD_FAILURE_TEXT)
  const [attempt, setAttempt] = useState(0)
  const [formStartedAt] = useState(() => startedAt ?? draft?.startedAt ?? Date.now())
  const [key, setKey] = useState(() => idempotencyKey ?? draft?.idempotencyKey ?? newIdempotencyKey())
  const honeypot = useRef<HTMLInputElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const sentRef = useRef<HTMLDivElement>(null)

  const clientErrors = useMemo(() => {
    if (!submitted) return {}
    const result = validateLead(toCandidate(values))
    return result.ok ? {} : result.errors
  }, [submitted, values])
  const errors: Record<string, string> = submitted ? { ...serverErrors, ...clientErrors } : {}

  useEffect(() => {
    const form = formRef.current
    const active = document.activeElement
    if (
      focusOnMount &&
      form &&
      active instanceof HTMLElement &&
      active.getAttribute('role') === 'dialog' &&
      active.contains(form)
    ) {
      form.querySelector<HTMLElement>('input:not([type="hidden"])')?.focus()
    }
  }, [focusOnMount])

  // After a rejected attempt, focus goes to the first field with a message.
  useEffect(() => {
    if (attempt === 0) return
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [attempt])

  useEffect(() => {
    if (status === 'sent') sentRef.current?.focus()
  }, [status])

  // Nothing typed is lost when the dialog closes or the page reloads before the lead is sent.
  useEffect(() => {
    if (!keepsDraft) return
    if (status === 'sent') clearLeadDraft()
    else saveLeadDraft({ values, idempotencyKey: key, startedAt: formStartedAt })
  }, [keepsDraft, status, values, key, formStartedAt])

  function change(field: keyof LeadFormValues, value: string | boolean | null) {
    setValues((v) => ({ ...v, [field]: value }))
    setServerErrors((e) => {
      if (!(field in e)) return e
      const { [field]: _, ...rest } = e
      return rest
    })
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (status === 'sending') return
    setSubmitted(true)
    const result = validateLead(toCandidate(values))
    if (!result.ok) {
      setAttempt((n) => n + 1)
      return
    }
    setStatus('sending')
    const outcome = await submitLead(result.lead, {
      idempotencyKey: key,
      website: honeypot.current?.value ?? '',
      formStartedAt,
      source: currentLeadSource(),
      ...(lines ? { lines: parseRequestList(lines), endpoint } : {}),
    })
    // The server took the sent products off the list: the header's counter reads it again.
    if (lines && outcome.kind !== 'invalid' && outcome.kind !== 'failed' && outcome.kind !== 'reused') {
      window.dispatchEvent(new Event(REQUEST_LIST_EVENT))
    }
    switch (outcome.kind) {
      case 'created':
        reachLeadGoal(settings.metrikaId)
        setStatus('sent')
        onSent?.()
        return
      case 'repeated':
      case 'accepted':
        setStatus('sent')
        onSent?.()
        return
      case 'invalid':
        setServerErrors(outcome.errors)
        setStatus('editing')
        setAttempt((n) => n + 1)
        return
      case 'reused':
        // The key stands for the lead it first came with: these values are a new lead.
        setKey(newIdempotencyKey())
        setFailure(LEAD_REUSED_FORM_TEXT)
        setStatus('failed')
        return
      case 'failed':
        setFailure(LEAD_FAILURE_TEXT)
        setStatus('failed')
    }
  }

  if (status === 'sent') return <SentNote noteRef={sentRef} heading={sentHeading} />

  return (
    <form ref={formRef} className="lead-form" method="post" action={endpoint} noValidate onSubmit={submit}>
      <FieldsRenderer
        fields={LEAD_FORM_FIELDS}
        values={{ username: values.username, phone: values.phone, email: values.email }}
        errors={errors}
        idPrefix={id}
        onChange={(field, value) => change(field as keyof LeadFormValues, value)}
      />
      <ConsentField
        id={`${id}consent`}
        checked={values.consent}
        error={errors.consent}
        consentUrl={settings.consentUrl}
        onChange={(checked) => change('consent', checked)}
        onOpenConsent={onOpenConsent}
      />
      <Honeypot id={`${id}website`} inputRef={honeypot} />
      <input type="hidden" name={FORM_STARTED_AT_FIELD} value={formStartedAt} />
      <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />
      {lines && <input type="hidden" name={LINES_FIELD} value={lines} />}
      {errors.lines && (
        <p className="lead-form__failure" role="alert">
          {errors.lines}
        </p>
      )}
      {status === 'failed' && <FailureNote text={failure} tel={settings.tel} />}
      <button
        type="submit"
        className="button button--accent lead-form__submit"
        disabled={status === 'sending'}
        aria-busy={status === 'sending' || undefined}
      >
        {LEAD_SUBMIT_LABEL}
      </button>
    </form>
  )
}
