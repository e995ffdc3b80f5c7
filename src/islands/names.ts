/** The islands the browser knows (renderer/islands.ts holds their components). */
export type IslandName = 'gallery' | 'lead-button' | 'lead-form' | 'nav' | 'slider'
