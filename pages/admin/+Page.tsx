// https://vike.dev/Page — /admin: the leads inbox (the layout asks for the secret first).
export { LeadsInbox as Page } from './leads/LeadsInbox'
