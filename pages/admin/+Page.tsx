// https://vike.dev/Page — the back office's screens (the layout asks for the secret first).
import { usePageContext } from 'vike-react/usePageContext'
import { ContentTree } from './content/ContentTree'
import { RecordEditor } from './content/editor/RecordEditor'
import { LeadsInbox } from './leads/LeadsInbox'
import { PriceListScreen } from './price-list/PriceListScreen'
import { ExchangeScreen } from './exchange/ExchangeScreen'
import { CharacteristicsScreen } from './characteristics/CharacteristicsScreen'
import { ProductsScreen } from './products/ProductsScreen'
import { PrivacyScreen } from './privacy/PrivacyScreen'
import { SettingsScreen } from './settings/SettingsScreen'
import { PasswordScreen } from './password/PasswordScreen'
import { screenOf } from './screens'
import { ADMIN_PATHS } from '../../src/site/paths'

export function Page() {
  const screen = screenOf(usePageContext().urlPathname)
  if (screen?.kind === 'leads') return <LeadsInbox />
  if (screen?.kind === 'content') return <ContentTree />
  if (screen?.kind === 'privacy') return <PrivacyScreen />
  if (screen?.kind === 'price-list') return <PriceListScreen />
  if (screen?.kind === 'exchange') return <ExchangeScreen />
  if (screen?.kind === 'characteristics') return <CharacteristicsScreen />
  if (screen?.kind === 'products') return <ProductsScreen />
  if (screen?.kind === 'settings') return <SettingsScreen />
  if (screen?.kind === 'password') return <PasswordScreen />
  // The layout shows the first password's form there, without a session.
  if (screen?.kind === 'setup') return null
  // Keyed by id: another record gets a fresh form, not the previous record's state.
  if (screen?.kind === 'record') return <RecordEditor key={screen.id} id={screen.id} />
  return (
    <section>
      <h1>Нет такой страницы</h1>
      <p>
        <a href={ADMIN_PATHS.leads}>К заявкам</a>
      </p>
    </section>
  )
}
