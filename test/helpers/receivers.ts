// Real receivers on loopback for the lead delivery channels: an SMTP server (smtp-server) and an
// HTTP server standing in for the Telegram Bot API or a webhook endpoint. Each records what it got.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The raw message as the client sent it (headers and body) */
  raw: string
}

export interface SmtpReceiver {
  url: string
  mails: ReceivedMail[]
  close(): Promise<void>
}

/** An SMTP server (plain, login user/secret) that keeps every message it accepts. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      // The credentials of SMTP_URL must arrive: anything else is refused, as a real server would.
      if (auth.username === 'user' && auth.password === 'secret') callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://user:secret@127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface ReceivedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }

export interface HttpReceiver {
  url: string
  requests: ReceivedRequest[]
  /** Requests being answered right now, by a key the test chooses */
  inFlight: Map<string, number>
  /** The most requests with one key that were being answered at the same time */
  maxInFlight: Map<string, number>
  /** What the next requests get; once empty, `fallback` */
  answers: Answer[]
  fallback: Answer
  close(): Promise<void>
}

/** An HTTP server answering from a queue of canned answers, keeping every request. */
export async function startHttpReceiver(
  key: (request: ReceivedRequest) => string = (request) => request.url,
): Promise<HttpReceiver> {
  const receiver: Omit<HttpReceiver, 'url' | 'close'> = {
    requests: [],
    inFlight: new Map(),
    maxInFlight: new Map(),
    answers: [],
    fallback: { status: 200, body: { ok: true, result: {} } },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      }
      receiver.requests.push(request)
      const id = key(request)
      const now = (receiver.inFlight.get(id) ?? 0) + 1
      receiver.inFlight.set(id, now)
      receiver.maxInFlight.set(id, Math.max(now, receiver.maxInFlight.get(id) ?? 0))
      const answer = receiver.answers.shift() ?? receiver.fallback
      setTimeout(() => {
        receiver.inFlight.set(id, (receiver.inFlight.get(id) ?? 1) - 1)
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        res.end(JSON.stringify(answer.body ?? {}))
      }, answer.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

/** Waits until check() is true, polling; fails with `what` after the timeout. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
