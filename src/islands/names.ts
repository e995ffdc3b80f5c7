/** The islands the browser knows (renderer/islands.ts holds their components). */
export type IslandName = 'lead-button' | 'lead-form' | 'nav' | 'slider'
