import type { SiteInfo } from '../../src/site/types'
import { Image } from '../../src/components/Image'
import { Island } from '../../src/islands/Island'
import { LeadButton } from '../../src/lead/LeadButton'
import { Phone } from './Phone'

export function Footer({ site }: { site: SiteInfo | null }) {
  return (
    <footer className="footer">
      <div className="footer__inner container">
        <a className="footer__logo" href="/" aria-label="На главную">
          <Image src={site?.logo ?? null} alt={site?.title ?? 'Логотип'} shape="logo" width={258} />
        </a>
        <div className="footer__contacts">
          {site?.tel && <Phone tel={site.tel} label={site.telText} className="footer__phone" />}
          <Island name="lead-button" component={LeadButton} props={{}} />
        </div>
        {site && site.footerLinks.length > 0 && (
          <nav className="footer__links" aria-label="Документы">
            {site.footerLinks.map((link) => (
              <a key={link.url} href={link.url}>
                {link.title}
              </a>
            ))}
          </nav>
        )}
        {site?.copyright && <p className="footer__copyright">{site.copyright}</p>}
      </div>
    </footer>
  )
}
