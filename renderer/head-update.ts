// The head tags of a page reached by client navigation (vike-react updates only title and
// description). Loaded on the first client navigation, never with the first page: the server's
// HTML already carries these tags.
import type { PageContextClient } from 'vike/types'
import { ERROR_HEAD_TAGS, OG_IMAGE_SIZE, pageHeadTags, type HeadTags } from '../src/site/head-tags'
import { serializeJsonLd } from '../src/site/json-ld'
import type { PageData } from '../src/site/types'

export function updateHeadTags(pageContext: PageContextClient): void {
  const isRecordPage =
    pageContext.pageId === '/pages/cms' &&
    pageContext.data &&
    !pageContext.is404 &&
    pageContext.abortStatusCode === undefined
  applyHeadTags(
    isRecordPage
      ? pageHeadTags(pageContext.data as PageData, pageContext.site, pageContext.publicSettings)
      : ERROR_HEAD_TAGS,
  )
}

function setTag(selector: string, create: () => HTMLElement, attribute: string, value: string | null) {
  let element = document.head.querySelector<HTMLElement>(selector)
  if (value === null) {
    element?.remove()
    return
  }
  if (!element) {
    element = create()
    document.head.append(element)
  }
  element.setAttribute(attribute, value)
}

function meta(attribute: 'name' | 'property', key: string) {
  return () => {
    const element = document.createElement('meta')
    element.setAttribute(attribute, key)
    return element
  }
}

function applyHeadTags(tags: HeadTags) {
  setTag(
    'link[rel="canonical"]',
    () => Object.assign(document.createElement('link'), { rel: 'canonical' }),
    'href',
    tags.canonical,
  )
  setTag('meta[property="og:url"]', meta('property', 'og:url'), 'content', tags.ogUrl)
  setTag('meta[property="og:type"]', meta('property', 'og:type'), 'content', tags.ogType)
  setTag('meta[property="og:image"]', meta('property', 'og:image'), 'content', tags.ogImage)
  const size = tags.ogImage ? OG_IMAGE_SIZE : null
  setTag('meta[property="og:image:type"]', meta('property', 'og:image:type'), 'content', size && 'image/jpeg')
  setTag('meta[property="og:image:width"]', meta('property', 'og:image:width'), 'content', size && String(size.width))
  setTag(
    'meta[property="og:image:height"]',
    meta('property', 'og:image:height'),
    'content',
    size && String(size.height),
  )
  setTag('meta[property="og:site_name"]', meta('property', 'og:site_name'), 'content', tags.siteName)
  setTag('meta[name="robots"]', meta('name', 'robots'), 'content', tags.robots)
  for (const old of document.head.querySelectorAll('script[type="application/ld+json"]')) old.remove()
  for (const item of tags.jsonLd) {
    const script = document.createElement('script')
    script.type = 'application/ld+json'
    script.textContent = serializeJsonLd(item)
    document.head.append(script)
  }
}
