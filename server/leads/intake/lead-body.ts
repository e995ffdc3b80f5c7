// The multipart lead body of docs/contract.md §3: the lead as a JSON string in the field `data`.
// @fastify/multipart reads the raw request itself, past Fastify's body limit, so the bytes are
// counted here as they arrive: past the limit, or at the first file part (a lead has no files),
// reading stops at once and the connection ends with the answer (stopReading), whatever the
// client still sends.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { messagesRu } from '../../../src/validation/messages-ru'
import { HttpError } from '../../http/http-error'

const tooLarge = () => new HttpError(413, 'payload_too_large', 'payload_too_large')

/** A multipart lead with a file part: refused as soon as the part begins. */
export const FILE_REFUSED = 'file_refused'

/** Reads no more of the request; the answer closes the connection (nothing is left to read). */
export function stopReading(request: FastifyRequest, reply: FastifyReply): void {
  request.raw.unpipe()
  request.raw.pause()
  reply.header('connection', 'close')
}

/** The lead of a multipart body and the names of any other fields, reported as unknown. */
export async function readMultipartLead(
  request: FastifyRequest,
  limit: number,
): Promise<{ body: unknown; unknownFields: string[] }> {
  if (Number(request.headers['content-length']) > limit) throw tooLarge()
  let received = 0
  let refuse: (error: HttpError) => void = () => {}
  const refused = new Promise<never>((_resolve, reject) => (refuse = reject))
  refused.catch(() => {}) // awaited through the race below; never an unhandled rejection
  // Counted on the socket's data, chunked or not: the parser sees the same bytes.
  const count = (chunk: Buffer) => {
    received += chunk.length
    if (received > limit) refuse(tooLarge())
  }
  request.raw.on('data', count)
  const unknownFields: string[] = []
  let data: unknown
  let hasData = false
  const parts = request.parts()[Symbol.asyncIterator]()
  try {
    for (;;) {
      const next = await Promise.race([parts.next(), refused])
      if (next.done) break
      const part = next.value
      if (part.type === 'file') {
        // Refused at its first byte: nothing of the file is read.
        const names = [...unknownFields, part.fieldname]
        throw new HttpError(
          400,
          'bad_request',
          FILE_REFUSED,
          Object.fromEntries(names.map((name) => [name, messagesRu.any.unknown])),
        )
      }
      if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge()
      if (part.fieldname !== 'data' || hasData) {
        unknownFields.push(part.fieldname)
        continue
      }
      hasData = true
      data = part.value
    }
  } catch (error) {
    if (error instanceof HttpError && error.code === FILE_REFUSED) throw error
    const status = (error as FastifyError).statusCode
    // Limits are 413; anything else the parser chokes on is a malformed request, never a 500.
    throw status === 413 ? tooLarge() : new HttpError(400, 'bad_request', 'bad_request')
  } finally {
    request.raw.off('data', count)
  }
  if (!hasData || typeof data !== 'string') return { body: hasData ? data : {}, unknownFields }
  try {
    return { body: JSON.parse(data), unknownFields }
  } catch {
    throw new HttpError(400, messagesRu.any.invalid, 'invalid_json', { data: messagesRu.any.invalid })
  }
}
