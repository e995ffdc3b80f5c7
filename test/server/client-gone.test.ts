// A client that disconnects in the middle of an answer is logged at debug, not as an error (issue
// #21 item 15): a real socket asks for a large image, reads the first bytes and goes away, once
// with gzip (the answer streams through @fastify/compress) and once without; the log is captured.
import fs from 'node:fs'
import type { IncomingMessage } from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { isClientGone } from '../../server/http/client-gone'
import { tempDir, testConfig } from '../helpers/build-test-app'
import { waitFor } from '../helpers/receivers'

interface LogLine {
  level: number
  msg: string
  reqId?: string
  err?: { message: string }
}

const lines: LogLine[] = []
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine)
    done()
  },
})
let app: App
let port: number
let dir: string

beforeAll(async () => {
  dir = tempDir()
  const config = testConfig(dir, { LOG_LEVEL: 'debug', SEED_DEMO: 'false' })
  app = await buildApp(config, { logStream })
  await app.listen({ port: 0, host: '127.0.0.1' })
  port = (app.server.address() as net.AddressInfo).port
  // 8 MB of text that compresses poorly: far more than the socket's buffers take at once.
  const text = Array.from({ length: 200_000 }, () => Math.random().toString(36).slice(2)).join('\n')
  fs.writeFileSync(
    path.join(config.mediaDir, 'large.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg"><!--${text.repeat(3)}--></svg>`,
  )
})
afterAll(async () => {
  await app?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Asks for the image over a raw socket and closes it as soon as the answer starts; the request's log id. */
async function abortMidAnswer(encoding: string): Promise<string> {
  const before = lines.length
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /media/large.svg HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${encoding}\r\n\r\n`)
    })
    socket.once('data', (head) => {
      expect(head.toString('latin1')).toMatch(/^HTTP\/1\.1 200/)
      socket.destroy()
      resolve()
    })
    socket.once('error', reject)
  })
  await waitFor(() => lines.slice(before).some((l) => l.msg === 'incoming request'), 'the request logged')
  return lines.slice(before).find((l) => l.msg === 'incoming request')!.reqId!
}

const ofRequest = (reqId: string) => lines.filter((l) => l.reqId === reqId)

describe('a client that goes away mid-answer', () => {
  it('is logged at debug when the answer streams through compression', async () => {
    const reqId = await abortMidAnswer('gzip')
    await waitFor(() => ofRequest(reqId).some((l) => l.err?.message === 'premature close'), 'the premature close')
    const close = ofRequest(reqId).find((l) => l.err?.message === 'premature close')!
    expect(close.level).toBe(20)
    expect(ofRequest(reqId).filter((l) => l.level >= 40)).toEqual([])
  })

  it('is logged at debug when the answer streams as it is', async () => {
    const reqId = await abortMidAnswer('identity')
    await waitFor(() => ofRequest(reqId).some((l) => l.msg === 'stream closed prematurely'), 'the closed stream')
    expect(ofRequest(reqId).find((l) => l.msg === 'stream closed prematurely')!.level).toBe(20)
    expect(ofRequest(reqId).filter((l) => l.level >= 40)).toEqual([])
  })

  it('keeps a connection error at its level while the client is still there (a database reset, say)', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    const connected = { socket: { destroyed: false } } as IncomingMessage
    const gone = { socket: { destroyed: true } } as IncomingMessage
    expect(isClientGone(reset, connected)).toBe(false)
    expect(isClientGone(reset, gone)).toBe(true)
    expect(isClientGone(new Error('disk full'), gone)).toBe(false)
  })
})
