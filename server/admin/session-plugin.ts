// The back office session as one root-level mechanism (docs/decisions/019-admin-sessions.md):
// parses cookies, tells whether a request carries a live session (app.adminSession.read, what
// createAdminCheck asks), starts and ends sessions, and sends the cookie again when its sliding
// expiry moved. It also answers who signs in at the form (docs/decisions/038-first-sign-in.md):
// ADMIN_PASSWORD when set, else the owner's password kept in the database, else ADMIN_TOKEN.
// The cookie is signed with a key derived from the admin secret, so replacing ADMIN_PASSWORD /
// ADMIN_TOKEN revokes every session at once; with neither set, from a random seed kept in the
// database, and a changed owner's password ends the other sessions by deleting their rows.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import cookie from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config/config'
import { createCredentialGuard, type CredentialGuard } from './credential-guard'
import { deleteSetupLinks, readOwnerPassword } from './owner-password'
import { verifyPassword } from './password-hash'
import type { SignInWith } from '../../src/admin/admin-password'
import {
  createSession,
  deleteSession,
  deleteSessionsExcept,
  deleteSessionsOfOtherKeys,
  findSession,
  SESSION_IDLE_MS,
  storedSigningSeed,
  type LiveSession,
} from './session-store'

/**
 * What signs in at the form now: ADMIN_PASSWORD (`environment`), the owner's password chosen in
 * the back office (`owner`), ADMIN_TOKEN while no password exists (`token`), or nothing yet (`none`:
 * only the one-time link printed at start can choose a password).
 */
export type SignInMethod = SignInWith | 'none'

interface AdminSession {
  /** The site's canonical origin, which state-changing requests must come from */
  readonly publicUrl: string
  /** The request's live session (slid forward), or null; asked once per request */
  read(request: FastifyRequest): Promise<LiveSession | null>
  /** What signs in now (the owner's password may have been chosen by another worker) */
  signInMethod(): Promise<SignInMethod>
  /** Whether `secret` signs in now: compared in constant time, or checked against the stored hash */
  matches(secret: string): Promise<boolean>
  /** Starts a session and sets its cookie on the reply */
  start(reply: FastifyReply): Promise<LiveSession>
  /** Deletes the request's session, if any, and clears the cookie */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>
  /** Deletes every session but `keep` (the owner's password changed) */
  endOthers(keep: LiveSession): Promise<void>
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

/** The configured admin secret: the password when set, else the API token (null: neither is set). */
export function adminSecret(config: Config): string | null {
  return config.adminPassword ?? config.adminToken
}

export const adminSessionPlugin = fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now = () => new Date() }) => {
    const secret = adminSecret(config) ?? (await storedSigningSeed(app.db))
    // Derived, not the secret itself: the cookie's HMAC key and a fingerprint stored with each
    // session, neither of which gives the secret back.
    const signingKey = createHmac('sha256', secret).update('vitrina admin session v1').digest()
    const fingerprint = sha256(signingKey).toString('hex').slice(0, 32)
    const passwordDigest = config.adminPassword === null ? null : sha256(config.adminPassword)
    const tokenDigest = config.adminToken === null ? null : sha256(config.adminToken)
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

    await app.register(cookie, { secret: signingKey })
    // Sessions of another secret are deleted at start: going back to an old secret later does
    // not bring its sessions back.
    await deleteSessionsOfOtherKeys(app.db, fingerprint).catch((error: Error) => {
      app.log.warn({ message: error.message }, 'sessions of a former admin secret not deleted')
    })
    // ADMIN_PASSWORD wins: a link printed by an earlier start may no longer choose a password.
    if (passwordDigest !== null) {
      await deleteSetupLinks(app.db).catch((error: Error) => {
        app.log.warn({ message: error.message }, 'one-time links to choose a password not deleted')
      })
    }

    const sessions = new WeakMap<FastifyRequest, Promise<LiveSession | null>>()

    async function lookUp(request: FastifyRequest): Promise<LiveSession | null> {
      const raw = request.cookies[ADMIN_SESSION_COOKIE]
      if (!raw) return null
      const { valid, value } = request.unsignCookie(raw)
      if (!valid || !value) return null
      return findSession(app.db, value, fingerprint, now())
    }

    app.decorate('adminSession', {
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
      async signInMethod() {
        if (passwordDigest !== null) return 'environment'
        if ((await readOwnerPassword(app.db)) !== null) return 'owner'
        return tokenDigest !== null ? 'token' : 'none'
      },
      async matches(candidate: string) {
        if (passwordDigest !== null) return timingSafeEqual(sha256(candidate), passwordDigest)
        const stored = await readOwnerPassword(app.db)
        if (stored !== null) return verifyPassword(candidate, stored)
        return tokenDigest !== null && timingSafeEqual(sha256(candidate), tokenDigest)
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
      endOthers: (keep: LiveSession) => deleteSessionsExcept(app.db, keep),
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
