// The back office session as one root-level mechanism (docs/decisions/019-admin-sessions.md):
// parses cookies, tells whether a request carries a live session (app.adminSession.read, what
// createAdminCheck asks), starts and ends sessions, and sends the cookie again when its sliding
// expiry moved. The cookie is signed with a key derived from the admin secret, so replacing
// ADMIN_PASSWORD / ADMIN_TOKEN revokes every session at once.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import cookie from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config/config'
import { createCredentialGuard, type CredentialGuard } from './credential-guard'
import {
  createSession,
  deleteSession,
  deleteSessionsOfOtherKeys,
  findSession,
  SESSION_IDLE_MS,
  type LiveSession,
} from './session-store'

interface AdminSession {
  /** An admin secret is configured (ADMIN_PASSWORD or ADMIN_TOKEN): signing in is possible */
  readonly configured: boolean
  /** The site's canonical origin, which state-changing requests must come from */
  readonly publicUrl: string
  /** The request's live session (slid forward), or null; asked once per request */
  read(request: FastifyRequest): Promise<LiveSession | null>
  /** Whether `secret` is the admin secret, compared in constant time */
  matches(secret: string): boolean
  /** Starts a session and sets its cookie on the reply */
  start(reply: FastifyReply): Promise<LiveSession>
  /** Deletes the request's session, if any, and clears the cookie */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>
  /** The clock of sessions and the sign-in limit (tests drive it) */
  now(): Date
  /** Failed credentials per address, for every way in (credential-guard.ts) */
  readonly guard: CredentialGuard
}

declare module 'fastify' {
  interface FastifyInstance {
    adminSession: AdminSession
  }
}

/** The back office's session cookie. */
const ADMIN_SESSION_COOKIE = 'vitrina_admin'

/** Whether the request carries a session cookie (live or not): a signed-in owner's pages are never cached. */
export function hasAdminCookie(request: FastifyRequest): boolean {
  const header = request.headers.cookie
  return header !== undefined && header.split(';').some((c) => c.trim().startsWith(`${ADMIN_SESSION_COOKIE}=`))
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest()

/** The admin secret: the password when set, else the API token (null: no sign-in). */
export function adminSecret(config: Config): string | null {
  return config.adminPassword ?? config.adminToken
}

export const adminSessionPlugin = fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now = () => new Date() }) => {
    const secret = adminSecret(config)
    // Derived, not the secret itself: the cookie's HMAC key and a fingerprint stored with each
    // session, neither of which gives the secret back.
    const signingKey = secret === null ? null : createHmac('sha256', secret).update('vitrina admin session v1').digest()
    const fingerprint = signingKey === null ? '' : sha256(signingKey).toString('hex').slice(0, 32)
    const expected = secret === null ? null : sha256(secret)
    // `Secure` follows the site's address in effect (PUBLIC_URL, else «Настройки»), read per answer.
    const cookieOptions = () =>
      ({
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: app.settings.current().publicUrl.startsWith('https:'),
        signed: true,
        maxAge: SESSION_IDLE_MS / 1000,
      }) as const

    await app.register(cookie, signingKey === null ? {} : { secret: signingKey })
    // Sessions of another secret are deleted at start: going back to an old secret later does
    // not bring its sessions back.
    await deleteSessionsOfOtherKeys(app.db, fingerprint).catch((error: Error) => {
      app.log.warn({ message: error.message }, 'sessions of a former admin secret not deleted')
    })

    const sessions = new WeakMap<FastifyRequest, Promise<LiveSession | null>>()

    async function lookUp(request: FastifyRequest): Promise<LiveSession | null> {
      const raw = request.cookies[ADMIN_SESSION_COOKIE]
      if (signingKey === null || !raw) return null
      const { valid, value } = request.unsignCookie(raw)
      if (!valid || !value) return null
      return findSession(app.db, value, fingerprint, now())
    }

    app.decorate('adminSession', {
      configured: secret !== null,
      get publicUrl() {
        return app.settings.current().publicUrl
      },
      read(request: FastifyRequest) {
        let session = sessions.get(request)
        if (!session) {
          session = lookUp(request)
          sessions.set(request, session)
        }
        return session
      },
      matches(candidate: string) {
        return expected !== null && timingSafeEqual(sha256(candidate), expected)
      },
      async start(reply: FastifyReply) {
        const session = await createSession(app.db, fingerprint, now())
        sessions.set(reply.request, Promise.resolve(session))
        return session
      },
      async end(request: FastifyRequest, reply: FastifyReply) {
        const session = await this.read(request)
        if (session) await deleteSession(app.db, session.token)
        sessions.set(request, Promise.resolve(null))
        reply.clearCookie(ADMIN_SESSION_COOKIE, { ...cookieOptions(), maxAge: undefined })
      },
      now,
      guard: createCredentialGuard(app.db, now),
    } satisfies AdminSession)

    // A session that started or slid forward sends its cookie again, so the browser's copy
    // expires 12 h after the last request too.
    // A callback, not an async hook: a request that read no session (every visitor's) costs no promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      const pending = sessions.get(request)
      if (!pending) return done(null, payload)
      pending
        .catch(() => null)
        .then((session) => {
          if (session?.touched) reply.setCookie(ADMIN_SESSION_COOKIE, session.token, cookieOptions())
          done(null, payload)
        }, done)
    })
  },
  { name: 'admin-session', dependencies: ['db', 'settings'] },
)
