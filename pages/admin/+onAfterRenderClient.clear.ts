// https://vike.dev/onAfterRenderClient — `.clear` drops the site's hook: it rewrites the head tags of
// public pages (robots, canonical, Open Graph) and remembers a visit's advertising tags for leads,
// none of which belongs to the back office.
export function onAfterRenderClient(): void {}
