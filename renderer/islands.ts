// The components the browser hydrates as islands (src/islands/), by the name the server wrote.
import { Gallery } from '../src/components/Gallery'
import { SliderControls } from '../src/components/SliderControls'
import type { IslandRegistry } from '../src/islands/hydrate'
import { LeadButton } from '../src/lead/LeadButton'
import { NavToggle } from './layout/NavToggle'

export const ISLANDS: IslandRegistry = {
  gallery: Gallery,
  'lead-button': LeadButton,
  nav: NavToggle,
  slider: SliderControls,
  // Only /zayavka shows the form as a page; the dialog loads the same chunk.
  'lead-form': { load: () => import('../src/lead/LeadForm').then((module) => module.LeadForm) },
}
