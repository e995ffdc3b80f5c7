// Zip archives built byte by byte, for the archives a real tool would not write: entries that
// declare sizes other than their own (a zip bomb's tricks). Deflated, no data descriptors.
import zlib from 'node:zlib'

export interface ZipEntry {
  readonly name: string
  readonly data: Buffer
  /** The entry already deflated (then `data` is ignored): its deflated bytes, CRC-32 and size */
  readonly deflated?: { readonly bytes: Buffer; readonly crc: number; readonly size: number }
  /** The uncompressed size written in both headers (default: the data's own) */
  readonly declaredSize?: number
}

/** A zip of the entries, in order; each deflated. */
export function buildZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const compressed = entry.deflated?.bytes ?? zlib.deflateRawSync(entry.data, { level: 9 })
    const crc = entry.deflated?.crc ?? zlib.crc32(entry.data)
    const size = entry.declaredSize ?? entry.deflated?.size ?? entry.data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6) // UTF-8 names
    local.writeUInt16LE(8, 8) // deflate
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(compressed.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, compressed)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x800, 8)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(compressed.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += 30 + name.length + compressed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** The entries of a zip (a real XLSX, say), to build another from them. */
export async function entriesOf(zip: Buffer): Promise<ZipEntry[]> {
  const { default: JSZip } = await import('jszip')
  const archive = await JSZip.loadAsync(zip)
  const out: ZipEntry[] = []
  for (const file of Object.values(archive.files)) {
    if (!file.dir) out.push({ name: file.name, data: await file.async('nodebuffer') })
  }
  return out
}

/** `size` bytes of zeros deflated a megabyte at a time (never held whole): a zip bomb's entry. */
export async function deflatedZeros(size: number): Promise<NonNullable<ZipEntry['deflated']>> {
  const deflate = zlib.createDeflateRaw({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  const megabyte = Buffer.alloc(1024 * 1024)
  let crc = 0
  for (let left = size; left > 0; left -= megabyte.length) {
    const piece = megabyte.subarray(0, Math.min(left, megabyte.length))
    crc = zlib.crc32(piece, crc)
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await done
  return { bytes: Buffer.concat(out), crc, size }
}
