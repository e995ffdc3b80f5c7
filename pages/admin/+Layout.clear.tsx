// https://vike.dev/Layout — `.clear` drops the site's layout (renderer/+Layout: its header and
// footer, the lead dialog) for the back office, which has its own frame.
export { AdminLayout as Layout } from './layout/AdminLayout'
