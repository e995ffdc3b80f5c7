// Parts of the lead form (LeadForm.tsx): the consent checkbox with its link to the consent text
// (opened in place when the form is given a way to), the honeypot only a bot fills in, and the
// failure line with the phone to call instead, and the note that replaces the form once it is sent.
import type { MouseEvent, Ref } from 'react'
import { classNames } from '../components/form/field-value'
import { telLink } from '../format/phone'
import { LEAD_LABELS } from './lead'
import { HONEYPOT_FIELD } from './lead-schema'
import { LEAD_SENT_TEXT, LEAD_SENT_TITLE } from './lead-form-state'

const CONSENT_LINK_TEXT = 'обработку персональных данных'
const CONSENT_LEAD_IN = LEAD_LABELS.consent.slice(0, LEAD_LABELS.consent.length - CONSENT_LINK_TEXT.length)

export function ConsentField(props: {
  id: string
  checked: boolean
  error: string | undefined
  consentUrl: string | null | undefined
  onChange: (checked: boolean) => void
  onOpenConsent?: (opener: HTMLElement) => void
}) {
  const { id, checked, error, consentUrl, onChange, onOpenConsent } = props
  function open(event: MouseEvent<HTMLAnchorElement>) {
    if (!onOpenConsent || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    onOpenConsent(event.currentTarget)
  }

  return (
    <div className={classNames('field', 'lead-consent', error && 'field--invalid')}>
      <div className="lead-consent__row">
        <input
          className="lead-consent__box"
          type="checkbox"
          id={id}
          name="consent"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label className="lead-consent__label" htmlFor={id}>
          {consentUrl ? (
            <>
              {CONSENT_LEAD_IN}
              <a href={consentUrl} onClick={open}>
                {CONSENT_LINK_TEXT}
              </a>
            </>
          ) : (
            LEAD_LABELS.consent
          )}
        </label>
      </div>
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** The honeypot: off-screen and out of the tab order, so only a bot fills it in. */
export function Honeypot({ id, inputRef }: { id: string; inputRef: Ref<HTMLInputElement> }) {
  return (
    <div className="lead-form__trap" aria-hidden="true">
      <label htmlFor={id}>Ваш сайт</label>
      <input
        ref={inputRef}
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  )
}

export function FailureNote({ text, tel }: { text: string; tel: string | null | undefined }) {
  return (
    <p className="lead-form__failure" role="alert">
      {text}
      {tel && (
        <>
          {' '}
          <a href={telLink(tel)}>{tel}</a>
        </>
      )}
    </p>
  )
}

/** «Заявка отправлена»: focused when it appears, so a screen reader says it. */
export function SentNote({ noteRef, heading }: { noteRef: Ref<HTMLDivElement>; heading: boolean }) {
  return (
    <div className="lead-sent" ref={noteRef} tabIndex={-1} role="status">
      {heading && <h2 className="lead-sent__title">{LEAD_SENT_TITLE}</h2>}
      <p className="lead-sent__text">{LEAD_SENT_TEXT}</p>
    </div>
  )
}
