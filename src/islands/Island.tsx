import { createElement, useContext, useId } from 'react'
import type { ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { MediaContext } from '../components/media-context'
import { LeadSettingsContext } from '../lead/lead-settings'
import { IslandRoot, ISLAND_TAG, type IslandContext } from './island-root'
import type { IslandName } from './names'

type IslandProps<P extends object> = {
  /** The browser's name of the component (renderer/islands.ts maps it back) */
  name: IslandName
  component: ComponentType<P>
  /** JSON-safe props: they travel in the HTML */
  props: P
}

/**
 * An interactive part of a server-rendered page (docs/decisions/021-islands.md). The page itself
 * is HTML only; the browser hydrates each island as a React root of its own, from the props
 * written next to it. The island is rendered as its own tree here too, with the root's id
 * prefix, so its markup (useId included) is exactly what the browser's hydration expects.
 */
export function Island<P extends object>({ name, component, props }: IslandProps<P>) {
  const prefix = `${useId()}-`
  const context: IslandContext = { mediaUrl: useContext(MediaContext), lead: useContext(LeadSettingsContext) }
  const html = renderToString(
    <IslandRoot context={context}>{createElement(component as ComponentType<object>, props)}</IslandRoot>,
    {
      identifierPrefix: prefix,
    },
  )
  // Only what hydration needs: no props attribute for an island without props, no prefix for one
  // that renders no useId value (hydrate.tsx reads both as absent then).
  return createElement(ISLAND_TAG, {
    'data-island': name,
    'data-props': Object.keys(props).length > 0 ? JSON.stringify(props) : undefined,
    'data-id-prefix': html.includes(prefix) ? prefix : undefined,
    dangerouslySetInnerHTML: { __html: html },
  })
}
