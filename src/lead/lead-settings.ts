import { createContext } from 'react'

/** What the lead form needs from the site: the phone for the failure text, the consent page, Metrika. */
export type LeadSettings = {
  /** The site's phone as shown («+7 (495) 123-45-67»), or null */
  tel: string | null
  /** The consent text page the checkbox links to, or null */
  consentUrl: string | null
  /** Yandex Metrika counter id; the goal `lead` fires after a 201 only when set */
  metrikaId: number | null
}

/** Provided by the layout from the owning index record and the public settings. */
export const LeadSettingsContext = createContext<LeadSettings>({ tel: null, consentUrl: null, metrikaId: null })
