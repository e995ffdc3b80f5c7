import { LEAD_SENT_TITLE } from '../../src/lead/lead-form-state'

export const title = LEAD_SENT_TITLE
