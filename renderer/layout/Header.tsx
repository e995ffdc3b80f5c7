import type { SiteInfo } from '../../src/site/types'
import { Image } from '../../src/components/Image'
import { Island } from '../../src/islands/Island'
import { LeadButton } from '../../src/lead/LeadButton'
import { RequestListLink } from '../../src/lead/RequestListLink'
import { NavMenu } from './NavMenu'
import { Phone } from './Phone'
import { SearchBox } from './SearchBox'

export function Header({ site, currentUrl }: { site: SiteInfo | null; currentUrl: string }) {
  return (
    <header className="header">
      <div className="header__inner container">
        <a className="header__logo" href="/" aria-label="На главную">
          <Image src={site?.logo ?? null} alt={site?.title ?? 'Логотип'} shape="logo" width={258} eager />
        </a>
        {site?.tel && <Phone tel={site.tel} label={site.telText} className="header__phone" />}
        <SearchBox />
        <Island name="request-list-link" component={RequestListLink} props={{}} />
        <Island name="lead-button" component={LeadButton} props={{}} />
        <NavMenu links={site?.menu ?? []} currentUrl={currentUrl} />
      </div>
    </header>
  )
}
