// Compression of the answers the server holds whole (a rendered page, an API answer's JSON): one
// zlib call per answer. @fastify/compress (still registered, for streams such as built assets)
// turns every body into a stream through peek-stream, duplexify and pump; for a 30 KB page that
// machinery and its garbage cost more CPU than brotli itself (docs/decisions/018-lean-uncached-path.md).
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import fp from 'fastify-plugin'

/** Smaller bodies are not worth compressing (one TCP segment either way). */
export const COMPRESS_MIN_BYTES = 1024
/** Up to this size a body is compressed in the request's turn; larger ones on the thread pool. */
const SYNC_MAX_BYTES = 64 * 1024
/**
 * Quality 2 for a live answer (the page cache keeps quality 9 variants of what it holds): zlib's
 * default 11 cost ~3 ms of CPU per 25 KB page, more than rendering it. In the server, quality 4
 * cost 0.18 ms more per home page than quality 2 (interleaved A/B, ratio 0.89; its 512 KB hash
 * table is cleared per call and pushes the rendering's data out of the CPU cache), for 6 % fewer
 * bytes (5.0 instead of 5.3 KB).
 */
const BROTLI_QUALITY = 2
const GZIP_LEVEL = 6
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)/i

/**
 * Brotli's parameters for a body of `size` bytes: its window no larger than the body needs. At the
 * default 4 MiB window the encoder allocated 8 MiB per call for a 16 KB page (where a smaller one
 * compresses to the same bytes), which glibc then served with an mmap of its own each time once
 * large blocks go to the system at once (docs/decisions/032-1c-exchange.md, "Memory given back").
 */
export function brotliParams(quality: number, size: number): Record<number, number> {
  const { BROTLI_PARAM_LGWIN, BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT, BROTLI_MIN_WINDOW_BITS } = zlib.constants
  // A window of 2^bits − 16 bytes reaches back over the whole body.
  const bits = Math.ceil(Math.log2(size + 16))
  return {
    [BROTLI_PARAM_QUALITY]: quality,
    [BROTLI_PARAM_SIZE_HINT]: size,
    [BROTLI_PARAM_LGWIN]: Math.min(zlib.constants.BROTLI_MAX_WINDOW_BITS, Math.max(BROTLI_MIN_WINDOW_BITS, bits)),
  }
}

const brotliAsync = promisify(zlib.brotliCompress)
const gzipAsync = promisify(zlib.gzip)

export type Encoding = 'br' | 'gzip'

/** Whether a body of this content type gains from compression. */
export function isCompressible(contentType: string | undefined): boolean {
  return COMPRESSIBLE.test(contentType ?? '')
}

/**
 * The encoding to send for this Accept-Encoding among the ones on offer (brotli first), or null for
 * the plain body: `q=0` refuses an encoding, `*` stands for the ones not named.
 */
export function pickEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[]): Encoding | null {
  if (!acceptEncoding) return null
  const accepted = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean)
      return [name, q === undefined ? 1 : Number(q)] as const
    }),
  )
  return offered.find((name) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0) ?? null
}

/** `body` in `encoding`, made in one call (brotli quality 2 or gzip level 6, as for any live answer). */
export async function compressBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') {
    return body.length <= SYNC_MAX_BYTES
      ? zlib.gzipSync(body, { level: GZIP_LEVEL })
      : gzipAsync(body, { level: GZIP_LEVEL })
  }
  const options = { params: brotliParams(BROTLI_QUALITY, body.length) }
  return body.length <= SYNC_MAX_BYTES ? zlib.brotliCompressSync(body, options) : brotliAsync(body, options)
}

// fastify-plugin: the hook must see every route's answer, so it lives in the root context. A root
// onSend runs before @fastify/compress's route-level one, which then sees Content-Encoding and
// leaves the answer alone.
export const compressionPlugin = fp(
  async (app) => {
    // A callback, not an async hook: an answer left as it is costs no promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload)
      if (reply.hasHeader('content-encoding') || !isCompressible(reply.getHeader('content-type') as string)) {
        return done(null, payload)
      }
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload
      if (body.length < COMPRESS_MIN_BYTES) return done(null, payload)
      const vary = String(reply.getHeader('vary') ?? '')
      if (!/\baccept-encoding\b/i.test(vary))
        reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
      const encoding = pickEncoding(request.headers['accept-encoding'], ['br', 'gzip'])
      if (encoding === null || request.headers['x-no-compression'] !== undefined) return done(null, payload)
      reply.header('content-encoding', encoding)
      reply.removeHeader('content-length')
      compressBody(body, encoding).then((compressed) => done(null, compressed), done)
    })
  },
  { name: 'compression' },
)
