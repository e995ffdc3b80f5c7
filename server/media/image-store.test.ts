import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checkImage } from './image-store'
import { loadSharp } from './sharp'

async function jpegImage(width: number, height: number): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer()
}

describe('an upload’s name (docs/decisions/045-one-call-and-light-cards.md)', () => {
  it('is 16 hex digits of its content’s SHA-256 and its size', async () => {
    const bytes = await jpegImage(40, 30)
    const hash = createHash('sha256').update(bytes).digest('hex')
    expect((await checkImage(bytes)).relativePath).toBe(`uploads/${hash.slice(0, 16)}.40x30.jpg`)
    expect((await checkImage(bytes, undefined, async () => false)).relativePath).toBe(
      `uploads/${hash.slice(0, 16)}.40x30.jpg`,
    )
  })

  it('stays the 32-digit name of before when the same bytes are stored under it', async () => {
    const bytes = await jpegImage(40, 30)
    const long = `uploads/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.40x30.jpg`
    const image = await checkImage(bytes, undefined, async (name) => name === long)
    expect(image.relativePath).toBe(long)
  })
})
