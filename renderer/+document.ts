// The page's HTML document (renderer/document.ts), a setting of every page (+config.ts, meta): the
// function +onRenderHtml.ts calls, carried in pageContext.config so that the server's direct path
// calls the same one (docs/decisions/037-one-document.md).
export { pageDocument as document } from './document'
