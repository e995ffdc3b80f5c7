// https://vike.dev/Head — canonical link, Open Graph, robots and JSON-LD of the record.
// Crawlers load full documents, so the first-render head is what matters.
import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import { absoluteMedia, breadcrumbLd, organizationLd, productLd, serializeJsonLd } from '../../src/site/json-ld'
import type { Data } from './+data'

export function Head() {
  const page = useData<Data>()
  const { site, publicSettings } = usePageContext()
  const publicUrl = publicSettings?.publicUrl ?? ''
  const mediaUrl = publicSettings?.mediaUrl ?? ''
  const url = `${publicUrl}${page.meta.canonicalPath}`
  const image = page.meta.image ?? site?.logo ?? null
  const jsonLd: object[] = []
  if (page.typeId === 'index' && site) jsonLd.push(organizationLd(site, publicUrl, mediaUrl))
  if (page.typeId === 'product') jsonLd.push(productLd(page, publicUrl, mediaUrl))
  if ((page.typeId === 'product' || page.typeId === 'section') && page.breadcrumbs.length > 1) {
    jsonLd.push(breadcrumbLd(page.breadcrumbs, publicUrl))
  }
  jsonLd.push(...page.meta.jsonLd)
  return (
    <>
      <link rel="canonical" href={url} />
      <meta property="og:url" content={url} />
      <meta property="og:type" content={page.typeId === 'product' ? 'product' : 'website'} />
      <meta property="og:locale" content="ru_RU" />
      {site?.title && <meta property="og:site_name" content={site.title} />}
      {image && <meta property="og:image" content={absoluteMedia(publicUrl, mediaUrl, image)} />}
      {page.meta.robots && <meta name="robots" content={page.meta.robots} />}
      {jsonLd.map((item, i) => (
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(item) }} />
      ))}
    </>
  )
}
