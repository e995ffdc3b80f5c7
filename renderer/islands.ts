// The components the browser hydrates as islands (src/islands/), by the name the server wrote.
import { Gallery } from '../src/components/Gallery'
import { SliderControls } from '../src/components/SliderControls'
import type { IslandRegistry } from '../src/islands/hydrate'
import { LeadButton } from '../src/lead/LeadButton'
import { AddToList } from '../src/lead/AddToList'
import { RequestListLink } from '../src/lead/RequestListLink'
import { NavToggle } from './layout/NavToggle'

export const ISLANDS: IslandRegistry = {
  gallery: Gallery,
  'add-to-list': AddToList,
  'lead-button': LeadButton,
  'request-list-link': RequestListLink,
  nav: NavToggle,
  slider: SliderControls,
  // Only /zayavka shows the form as a page; the dialog loads the same chunk.
  'lead-form': { load: () => import('../src/lead/LeadForm').then((module) => module.LeadForm) },
  // Only the request list's page shows its lines and form (docs/decisions/041-request-list.md).
  'request-list': { load: () => import('../src/lead/RequestListPanel').then((module) => module.RequestListPanel) },
}
