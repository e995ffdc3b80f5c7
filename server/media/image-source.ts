// Which stored files an image may be derived from (a share image, a feed picture): the originals
// alone, never what was derived from them. An upload as stored (`uploads/<hash>.<W>x<H>.<ext>`, or
// a legacy `uploads/<hash>.<ext>`) and a shipped demo image are; a variant
// (`uploads/<hash>.<W>x<H>-<w>.<webp|avif>`), a share image, a feed picture or any other name is
// not, so that one upload cannot be made into dozens of derived files by asking for each of its
// variants (issue #36). Decided from the name alone: a refused name costs no read of the store.
import { parseSizedUpload } from '../../src/site/image-variants'

const LEGACY_UPLOAD = /^uploads\/[0-9a-f]{32}\.(jpg|png|webp|avif)$/
/** A demo image as the seed stores it (`demo/<file>-<hash><ext>`, server/catalogue/demo-seed.ts): one dot. */
const DEMO_IMAGE = /^demo\/[A-Za-z0-9][A-Za-z0-9_-]{0,199}\.(svg|png|jpg|jpeg|webp|avif)$/

/** Whether `key` names an original image, one that derived images may be made from. */
export function isImageSource(key: string): boolean {
  return parseSizedUpload(key) !== null || LEGACY_UPLOAD.test(key) || DEMO_IMAGE.test(key)
}
