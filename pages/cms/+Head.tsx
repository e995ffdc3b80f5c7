// https://vike.dev/Head — canonical link, Open Graph, robots and JSON-LD of the record.
import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import { OG_IMAGE_SIZE, pageHeadTags } from '../../src/site/head-tags'
import { serializeJsonLd } from '../../src/site/json-ld'
import { QUERY_META_NAME } from '../../src/site/query-names'
import { screenQueryNames } from '../../src/site/variant-query'
import type { Data } from './+data'

export function Head() {
  const page = useData<Data>()
  const { site, publicSettings } = usePageContext()
  const tags = pageHeadTags(page, site, publicSettings)
  const query = screenQueryNames(page.typeId)
  return (
    <>
      {query.length > 0 && <meta name={QUERY_META_NAME} content={query.join(' ')} />}
      {tags.canonical && <link rel="canonical" href={tags.canonical} />}
      {tags.ogUrl && <meta property="og:url" content={tags.ogUrl} />}
      <meta property="og:type" content={tags.ogType} />
      <meta property="og:locale" content="ru_RU" />
      {tags.siteName && <meta property="og:site_name" content={tags.siteName} />}
      {tags.ogImage && <meta property="og:image" content={tags.ogImage} />}
      {tags.ogImage && <meta property="og:image:type" content="image/jpeg" />}
      {tags.ogImage && <meta property="og:image:width" content={String(OG_IMAGE_SIZE.width)} />}
      {tags.ogImage && <meta property="og:image:height" content={String(OG_IMAGE_SIZE.height)} />}
      {tags.robots && <meta name="robots" content={tags.robots} />}
      {tags.jsonLd.map((item, i) => (
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(item) }} />
      ))}
    </>
  )
}
