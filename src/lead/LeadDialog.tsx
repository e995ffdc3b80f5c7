import { Suspense, lazy } from 'react'
import type { ModalApi } from '../components/modal/modal-context'
import { LEAD_FORM_TITLE, LEAD_SENT_TITLE } from './lead-form-state'
import type { LeadSettings } from './lead-settings'

const CONSENT_TITLE = 'Согласие на обработку персональных данных'

// The form brings ajv and the phone mask: loaded when a visitor reaches for the button, not
// with every page (the no-JS page /zayavka imports it directly).
const loadLeadForm = () => import('./LeadForm')
const LeadForm = lazy(() => loadLeadForm().then((module) => ({ default: module.LeadForm })))
// Only a visitor who opens the consent link from the dialog needs its text.
const ConsentText = lazy(() => import('./ConsentText').then((module) => ({ default: module.ConsentText })))

/** Starts loading the form's code early, e.g. when the pointer reaches the button. */
export function preloadLeadForm(): void {
  void loadLeadForm().catch(() => {
    // A failed preload is retried by the dialog itself.
  })
}

/** The product a product page's «Оставить заявку» asks about: named in the dialog, sent as one line. */
export interface LeadProduct {
  readonly id: number
  readonly title: string
}

/** Opens the lead dialog on the stack; its consent link opens the consent text above it. */
export function openLeadDialog(
  modal: ModalApi,
  settings: LeadSettings,
  opener: HTMLElement | null,
  product?: LeadProduct,
): number {
  return modal.open({
    title: LEAD_FORM_TITLE,
    opener,
    render: ({ setTitle }) => (
      <Suspense fallback={<p className="lead-loading">Загрузка…</p>}>
        {product && <p className="lead-product">{`Товар: ${product.title}`}</p>}
        <LeadForm
          lines={product ? `${product.id}x1` : undefined}
          settings={settings}
          sentHeading={false}
          focusOnMount
          onSent={() => setTitle(LEAD_SENT_TITLE)}
          onOpenConsent={
            settings.consentUrl ? (link) => openConsentDialog(modal, settings.consentUrl!, link) : undefined
          }
        />
      </Suspense>
    ),
  })
}

/** The consent text as a second dialog on top of the form. */
function openConsentDialog(modal: ModalApi, url: string, opener: HTMLElement | null): number {
  return modal.open({
    title: CONSENT_TITLE,
    opener,
    render: ({ setTitle }) => (
      <Suspense fallback={<p>Загрузка…</p>}>
        <ConsentText url={url} onTitle={setTitle} />
      </Suspense>
    ),
  })
}
