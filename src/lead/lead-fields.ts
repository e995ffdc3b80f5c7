import type { FieldDefinition } from '../components/form/field-definition'
import { LEAD_LABELS } from './lead'

/**
 * The lead form's text fields for FieldsRenderer, in form order. The consent checkbox is not
 * here: it carries a link to the consent text, which a field definition cannot express.
 *
 * No `maxLength` attribute: a pasted long name would be cut silently, while the schema's
 * «Не более 190 символов» tells the visitor what happened.
 */
export const LEAD_FORM_FIELDS = [
  {
    id: 'username',
    type: 'text',
    label: LEAD_LABELS.username,
    validator: 'string',
    autoComplete: 'name',
    required: true,
  },
  { id: 'phone', type: 'tel', label: LEAD_LABELS.phone, validator: 'string', autoComplete: 'tel', required: true },
  { id: 'email', type: 'email', label: LEAD_LABELS.email, validator: 'string', autoComplete: 'email', required: true },
] as const satisfies readonly FieldDefinition[]
