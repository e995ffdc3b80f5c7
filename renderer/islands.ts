// The components the browser hydrates as islands (src/islands/), by the name the server wrote.
import { Gallery } from '../src/components/Gallery'
import { Slider } from '../src/components/Slider'
import type { IslandRegistry } from '../src/islands/hydrate'
import { LeadButton } from '../src/lead/LeadButton'
import { NavMenu } from './layout/NavMenu'

export const ISLANDS: IslandRegistry = {
  gallery: Gallery,
  'lead-button': LeadButton,
  nav: NavMenu,
  slider: Slider,
  // Only /zayavka shows the form as a page; the dialog loads the same chunk.
  'lead-form': { load: () => import('../src/lead/LeadForm').then((module) => module.LeadForm) },
}
