// https://vike.dev/Page — /admin/content: the structure tree.
export { ContentTree as Page } from './ContentTree'
