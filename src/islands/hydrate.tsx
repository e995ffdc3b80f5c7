import { createRoot, hydrateRoot } from 'react-dom/client'
import { useLayoutEffect, type ComponentType } from 'react'
import { ModalProvider } from '../components/modal/ModalProvider'
import { ModalContext, useModal, type ModalApi } from '../components/modal/modal-context'
import { IslandRoot, ISLAND_CONTEXT_ID, ISLAND_TAG, type IslandContext } from './island-root'
import type { IslandName } from './names'

/** A component, or a loader of one that only some pages need (its code is fetched then). */
type AnyComponent = ComponentType<any>
export type IslandRegistry = Record<IslandName, AnyComponent | { load: () => Promise<AnyComponent> }>

const NO_CONTEXT: IslandContext = { mediaUrl: '', lead: { tel: null, consentUrl: null, metrikaId: null } }

/**
 * Hydrates every island of the page, each as a React root of its own, and mounts the dialog
 * stack beside the page: islands open dialogs through it, and the page goes inert under them.
 * Resolves once every island is interactive (then `<html data-hydrated>` is set).
 *
 * An island the server wrote empty is rendered here instead (`createRoot`): that is a client-only
 * island (Island's `clientOnly`). Emptiness is the signal, not an attribute, which every page
 * would carry: a server-rendered island is empty only if its component rendered nothing on the
 * server, and none does today; one that did would lose nothing by it, since hydrating an empty
 * element adopts no markup and the browser's first render inserts the same nodes either way
 * (hydrateRoot would add a mismatch error if that render were not empty too).
 */
export async function hydrateIslands(registry: IslandRegistry): Promise<void> {
  const context = readContext()
  const modal = mountModalHost()
  const islands = [...document.querySelectorAll<HTMLElement>(ISLAND_TAG)]
  await Promise.all(
    islands.map(async (element) => {
      const entry = registry[element.dataset.island as IslandName]
      if (!entry) {
        console.error(`Unknown island «${element.dataset.island}»`)
        return
      }
      const Component = 'load' in entry ? await entry.load() : entry
      const props = JSON.parse(element.dataset.props ?? '{}') as object
      // Either call only schedules the work: the island is interactive once its effects ran.
      await new Promise<void>((hydrated) => {
        const island = (
          <ModalContext value={modal}>
            <IslandRoot context={context} onHydrated={hydrated}>
              <Component {...props} />
            </IslandRoot>
          </ModalContext>
        )
        const options = { identifierPrefix: element.dataset.idPrefix }
        if (element.hasChildNodes()) hydrateRoot(element, island, options)
        else createRoot(element, options).render(island)
      })
    }),
  )
  document.documentElement.dataset.hydrated = ''
}

/** The page's shared values; a media origin that is the page's own is left out of the JSON. */
export function readContext(): IslandContext {
  const text = document.getElementById(ISLAND_CONTEXT_ID)?.textContent
  return text ? { ...NO_CONTEXT, ...(JSON.parse(text) as Partial<IslandContext>) } : NO_CONTEXT
}

/**
 * The dialog stack's own root, after the page. Until it has rendered, a dialog opened from an
 * island waits in a queue (hydration and this first render happen in the same task anyway).
 */
function mountModalHost(): ModalApi {
  let api: ModalApi | null = null
  const queued: (() => void)[] = []
  const host = document.createElement('div')
  document.body.append(host)
  function Bridge() {
    const provided = useModal()
    useLayoutEffect(() => {
      api = provided
      for (const call of queued.splice(0)) call()
    }, [provided])
    return null
  }
  createRoot(host).render(
    <ModalProvider page={document.querySelector<HTMLElement>('.modal-page')}>
      <Bridge />
    </ModalProvider>,
  )
  let nextQueued = -1
  return {
    open(options) {
      if (api) return api.open(options)
      queued.push(() => api!.open(options))
      return nextQueued--
    },
    close: (id) => api?.close(id),
    closeTop: () => api?.closeTop(),
  }
}
