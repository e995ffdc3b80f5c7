/** The islands the browser knows (renderer/islands.ts holds their components). */
export type IslandName =
  'add-to-list' | 'gallery' | 'lead-button' | 'lead-form' | 'nav' | 'request-list' | 'request-list-link' | 'slider'
