import { LEAD_FORM_TITLE } from '../../src/lead/lead-form-state'

export const title = LEAD_FORM_TITLE
