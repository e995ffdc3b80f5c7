import type { LeadFormState } from '../../src/lead/lead-form-state'

declare global {
  namespace Vike {
    interface PageContext {
      /** Set by POST /api/feedback when it renders this page back to a no-JS visitor */
      leadFormState?: LeadFormState | null
    }
  }
}

export {}
