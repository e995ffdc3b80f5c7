// A multipart lead sent in chunks, without Content-Length, over a real socket: the 16 KB limit
// counts the bytes as they arrive, so a 30 MB body is refused (413) long before it is all sent,
// and the connection ends with the answer; a file part is refused as soon as it begins.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, listen, type TestApp } from '../helpers/build-test-app'
import { waitFor } from '../helpers/receivers'

const BOUNDARY = 'vitrinaChunked'
const TOTAL = 30 * 1024 * 1024
const CHUNK = 64 * 1024

let t: TestApp
let port: number

beforeAll(async () => {
  t = await buildTestApp({ LEAD_RATE_LIMIT: '0', SEED_DEMO: 'false' })
  port = Number(new URL(await listen(t)).port)
})
afterAll(async () => {
  await t?.close()
})

/** A raw HTTP/1.1 client: what it has written, what it has read, whether the server closed. */
function chunkedPost() {
  const socket = net.connect(port, '127.0.0.1')
  const state = { written: 0, answer: '', closed: false }
  const received: Buffer[] = []
  socket.on('data', (data) => {
    received.push(data)
    state.answer = Buffer.concat(received).toString('utf8')
  })
  socket.on('close', () => (state.closed = true))
  socket.on('error', () => {}) // the server may reset a connection it stopped reading
  socket.write(
    [
      'POST /api/feedback HTTP/1.1',
      'Host: 127.0.0.1',
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      'Transfer-Encoding: chunked',
      '',
      '',
    ].join('\r\n'),
  )
  const answered = () => state.answer.includes('\r\n\r\n')
  return {
    state,
    answered,
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(state.answer)?.[1]),
    /** Sends one chunk; resolves when the socket takes more, or the server has answered. */
    send(bytes: Buffer): Promise<void> {
      state.written += bytes.length
      const more = socket.write(
        Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]),
      )
      if (more) return Promise.resolve()
      return new Promise((resolve) => {
        const done = () => {
          clearInterval(poll)
          resolve()
        }
        socket.once('drain', done)
        const poll = setInterval(() => (answered() || state.closed) && done(), 5)
      })
    },
    destroy: () => socket.destroy(),
  }
}

describe('a chunked multipart lead', () => {
  it('is refused with 413 once past 16 KB, without reading the rest of a 30 MB body', async () => {
    const client = chunkedPost()
    try {
      await client.send(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n`))
      const filler = Buffer.alloc(CHUNK, 'a')
      while (client.state.written < TOTAL && !client.answered() && !client.state.closed) await client.send(filler)
      await waitFor(() => client.answered(), 'the answer')
      expect(client.status()).toBe(413)
      expect(client.state.answer.toLowerCase()).toContain('connection: close')
      await waitFor(() => client.state.closed, 'the server closing the connection')
      // Socket buffers take a few megabytes; the body was far from sent when the answer came.
      expect(client.state.written).toBeLessThan(TOTAL / 2)
    } finally {
      client.destroy()
    }
  })

  it('is refused with 400 at the first file part, before the part has arrived', async () => {
    const client = chunkedPost()
    try {
      await client.send(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
      )
      await client.send(Buffer.alloc(1024, 0xff))
      // The body goes on (it never ends here): the answer must not wait for it.
      await waitFor(() => client.answered(), 'the answer to the file part')
      expect(client.status()).toBe(400)
      await waitFor(() => client.state.closed, 'the server closing the connection')
      expect(client.state.answer).toContain('"photo":"Неизвестное поле недопустимо"')
    } finally {
      client.destroy()
    }
  })
})
