// Shared bits of the API suites: the admin token, hand-built multipart bodies and test images.
import zlib from 'node:zlib'
import sharp from 'sharp'

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef'
export const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` }

/** The site's structure load (spec: find-many on structure, typeId in [index], ttl 120). */
export const STRUCTURE_LOAD = {
  select: {
    id: true,
    parentId: true,
    typeId: true,
    urlFull: true,
    index: { select: { logo: true, tel: true, telText: true, description: true, copyright: true } },
  },
  where: { typeId: { in: ['index'] } },
  orderBy: { typeId: 'asc' },
}

/** A real PNG of the given size and colour. */
export function pngImage(width = 8, height = 8, rgb: [number, number, number] = [200, 30, 30]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer()
}

export function jpegImage(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer()
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A tiny PNG whose header declares width × height pixels: a decompression bomb's calling card. */
export function pixelBombPng(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // truecolour
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
