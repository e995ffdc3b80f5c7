// https://vike.dev/Page — /admin/content/:id (and /admin/content/new): the record editor.
export { RecordEditor as Page } from '../editor/RecordEditor'
