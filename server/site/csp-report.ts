// POST /api/csp-report: where browsers report what the Content-Security-Policy blocked. Small
// bodies only (8 KB), rate-limited per address, answered 204; the log gets the directive, the
// blocked origin (or "inline") and the page's path, never query strings or the sample.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { routeOf } from '../http/route-path'
import { PATHS } from '../../src/site/paths'

const REPORT_BODY_LIMIT = 8 * 1024

type Report = Record<string, unknown>

/** The origin of a blocked URL, or the keyword the browser gave ("inline", "eval"). */
function blockedOf(value: unknown): string {
  if (typeof value !== 'string') return 'unknown'
  try {
    return new URL(value).origin
  } catch {
    return value.slice(0, 40)
  }
}

function pathOf(value: unknown): string {
  if (typeof value !== 'string') return 'unknown'
  try {
    return new URL(value).pathname.slice(0, 200)
  } catch {
    return 'unknown'
  }
}

/** The reports in either format: `application/csp-report` (one) or the Reporting API (a list). */
function reportsOf(body: unknown): Report[] {
  if (Array.isArray(body)) {
    return body
      .map((item) => (item as { body?: Report }).body)
      .filter((r): r is Report => typeof r === 'object' && r !== null)
  }
  const single = (body as { 'csp-report'?: Report } | null)?.['csp-report']
  return single ? [single] : []
}

export async function cspReportRoutes(app: FastifyInstance) {
  for (const type of ['application/csp-report', 'application/reports+json']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT }, (_request, text, done) => {
      try {
        done(null, JSON.parse(String(text)))
      } catch {
        done(Object.assign(new Error('bad report'), { statusCode: 400 }))
      }
    })
  }
  await app.register(rateLimit, { global: false })
  app.post(
    routeOf(app, PATHS.cspReport),
    { bodyLimit: REPORT_BODY_LIMIT, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      for (const report of reportsOf(request.body).slice(0, 5)) {
        request.log.warn(
          {
            directive: String(
              report['effective-directive'] ?? report.effectiveDirective ?? report['violated-directive'] ?? 'unknown',
            ).slice(0, 60),
            blocked: blockedOf(report['blocked-uri'] ?? report.blockedURL),
            page: pathOf(report['document-uri'] ?? report.documentURL),
          },
          'content security policy violation',
        )
      }
      return reply.code(204).send()
    },
  )
}
