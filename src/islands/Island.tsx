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
  /**
   * Rendered by the browser only: the server writes the element empty, without rendering the
   * component, and the browser renders it from its props instead of hydrating it. For a part that
   * does nothing without JavaScript (the slider's arrows and dots), so that its markup is not
   * sent in every page; the page keeps its place free in CSS, so nothing moves when it appears.
   */
  clientOnly?: boolean
}

/**
 * An interactive part of a server-rendered page (docs/decisions/021-islands.md). The page itself
 * is HTML only; the browser hydrates each island as a React root of its own, from the props
 * written next to it. The island is rendered as its own tree here too, with the root's id
 * prefix, so its markup (useId included) is exactly what the browser's hydration expects; a
 * client-only island is not rendered here at all.
 */
export function Island<P extends object>({ name, component, props, clientOnly = false }: IslandProps<P>) {
  const prefix = `${useId()}-`
  const context: IslandContext = { mediaUrl: useContext(MediaContext), lead: useContext(LeadSettingsContext) }
  const dataProps = Object.keys(props).length > 0 ? JSON.stringify(props) : undefined
  // No prefix either: the browser's own render (createRoot) makes useId values no server one can clash with.
  if (clientOnly) return createElement(ISLAND_TAG, { 'data-island': name, 'data-props': dataProps })
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
    'data-props': dataProps,
    'data-id-prefix': html.includes(prefix) ? prefix : undefined,
    dangerouslySetInnerHTML: { __html: html },
  })
}
