// What the start prints once the server listens (docs/contract.md §1, docs/decisions/038-first-sign-in.md):
// the last line always says where the site and its back office are and whether sign-in is set up;
// while no owner's password exists and ADMIN_PASSWORD is unset, the line before it is a one-time
// link to choose one. That link is printed nowhere else: its token is kept only as a hash.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/config'
import { issueSetupLink, SETUP_LINK_TTL_MS } from './owner-password'
import type { SignInMethod } from './session-plugin'
import { ADMIN_PATHS, PATHS } from '../../src/site/paths'

/** Where a browser on this machine finds the site: a wildcard address means localhost. */
export function siteAddress(config: Config): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === ''
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host
  return `http://${host}:${config.port}`
}

/**
 * The lines to print at start, the running line last. Makes a new one-time link while the owner
 * has no password (every start does, so a lost or expired link is one restart away).
 */
export async function startLines(app: FastifyInstance, config: Config): Promise<string[]> {
  // The address the owner's browser uses: PUBLIC_URL (http://localhost:PORT unless set).
  const admin = `${config.publicUrl}${PATHS.admin}`
  const running = `Vitrina is running at ${siteAddress(config)}; back office: ${admin}`
  let method: SignInMethod
  try {
    method = await app.adminSession.signInMethod()
  } catch (error) {
    app.log.error({ message: (error as Error).message }, 'how sign-in works could not be read from the database')
    return [`${running} (sign-in unknown: the database did not answer; restart once it does)`]
  }
  if (method === 'environment') return [`${running} (sign-in: ADMIN_PASSWORD; no one-time link is used)`]
  if (method === 'owner') return [`${running} (sign-in: the owner's password)`]
  let token: string
  try {
    token = await issueSetupLink(app.db, app.adminSession.now())
  } catch (error) {
    app.log.error({ message: (error as Error).message }, 'the one-time link to choose a password was not made')
    const meanwhile = method === 'token' ? 'sign-in: ADMIN_TOKEN' : 'sign-in is not set up'
    return [`${running} (${meanwhile}; the one-time link could not be made, restart to try again)`]
  }
  const hours = SETUP_LINK_TTL_MS / 3_600_000
  const link = `Choose the owner's password (one-time link, valid ${hours} h): ${config.publicUrl}${ADMIN_PATHS.setupLink(token)}`
  const status =
    method === 'token'
      ? 'sign-in: ADMIN_TOKEN until the owner chooses a password with the one-time link above'
      : 'sign-in is not set up yet: the owner chooses a password with the one-time link above'
  return [link, `${running} (${status})`]
}
