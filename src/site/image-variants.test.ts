import { describe, expect, it } from 'vitest'
import { parseSizedUpload, parseVariantPath, variantPath, variantWidths } from './image-variants'

const HASH = '0123456789abcdef0123456789abcdef'

describe('image variants', () => {
  it('never makes a variant wider than the original, and includes its own width under the top of the ladder', () => {
    expect(variantWidths(6000)).toEqual([320, 640, 960, 1280, 1920])
    expect(variantWidths(1920)).toEqual([320, 640, 960, 1280, 1920])
    expect(variantWidths(1000)).toEqual([320, 640, 960, 1000])
    expect(variantWidths(200)).toEqual([200])
  })

  it('reads the size from a stored upload name and nothing else', () => {
    expect(parseSizedUpload(`uploads/${HASH}.1500x1000.jpg`)).toEqual({
      stem: `uploads/${HASH}.1500x1000`,
      width: 1500,
      height: 1000,
    })
    for (const other of [
      `uploads/${HASH}.jpg`, // stored before sizes were in the name
      'demo/slide-1-d3b09418c5.svg',
      'https://cdn.example.ru/uploads/x.1500x1000.jpg',
      `uploads/${HASH}.0x10.png`,
      `uploads/${HASH}.1500x1000.svg`,
      `uploads/${HASH}.1500x1000-320.webp`,
    ])
      expect(parseSizedUpload(other), other).toBeNull()
  })

  it('reads the 16-digit names given now and the 32-digit names given before alike (decision 045)', () => {
    const short = HASH.slice(0, 16)
    expect(parseSizedUpload(`uploads/${short}.1500x1000.jpg`)).toEqual({
      stem: `uploads/${short}.1500x1000`,
      width: 1500,
      height: 1000,
    })
    const upload = parseSizedUpload(`uploads/${short}.1500x1000.jpg`)!
    expect(parseVariantPath(variantPath(upload, 640, 'avif'))).toMatchObject({ stem: upload.stem, variantWidth: 640 })
    for (const other of [`uploads/${HASH.slice(0, 20)}.1500x1000.jpg`, `uploads/${HASH.slice(0, 8)}.1500x1000.jpg`])
      expect(parseSizedUpload(other), other).toBeNull()
  })

  it('accepts a variant path only for a width and format the upload has', () => {
    const upload = parseSizedUpload(`uploads/${HASH}.1500x1000.png`)!
    expect(parseVariantPath(variantPath(upload, 1500, 'avif'))).toMatchObject({ variantWidth: 1500, format: 'avif' })
    expect(parseVariantPath(variantPath(upload, 320, 'webp'))).toMatchObject({ variantWidth: 320, format: 'webp' })
    for (const bad of [
      variantPath(upload, 1920, 'webp'),
      variantPath(upload, 500, 'webp'),
      `uploads/${HASH}.1500x1000-320.png`,
      `uploads/../${HASH}.1500x1000-320.webp`,
      `uploads/${HASH}.1500x1000-320.webp/`,
    ])
      expect(parseVariantPath(bad), bad).toBeNull()
  })
})
