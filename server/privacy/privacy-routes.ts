// The back office's «Персональные данные» (docs/decisions/027-personal-data.md), owner only:
//   GET  /api/admin/privacy                     operator details, documents, retention status
//   PUT  /api/admin/privacy/operator            { name?, inn?, address? }
//   GET  /api/admin/privacy/audit               the newest 200 audit entries
//   GET  /api/admin/privacy/cookie-choices.csv  the log of cookie choices (newest 100 000)
//   GET  /api/admin/privacy/subject?q=          everything about a phone or e-mail
//   GET  /api/admin/privacy/subject.json?q=     the same as a file
//   POST /api/admin/privacy/subject/erase       { q, mode: 'delete' | 'anonymise' }
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config/config'
import { createAdminCheck, requireAdmin } from '../admin/access'
import { HttpError } from '../http/http-error'
import { documentVersion } from '../content/documents'
import { loadPublishedText } from '../content/structure-store'
import { toCsv } from '../http/spreadsheet'
import { audit, readAudit } from './audit'
import { operatorDetails, saveOperator } from './operator'
import { subjectKey } from './subject'
import { routeOf } from '../http/route-path'
import { ADMIN_API_PATHS } from '../../src/site/paths'

const AUDIT_LIMIT = 200
const CHOICES_LIMIT = 100_000
const OWNER = 'owner'

const DOCUMENTS = [
  { kind: 'policy', title: 'Политика обработки персональных данных', slug: 'politika' },
  { kind: 'consent', title: 'Согласие на обработку персональных данных', slug: 'soglasie' },
  { kind: 'cookies', title: 'Использование файлов cookie', slug: 'cookies' },
] as const

function dateStamp(at: Date): string {
  return at.toISOString().slice(0, 10).replace(/-/g, '')
}

export async function privacyRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  // app.privacy is read per request: an app assembled for a test may serve the API without it.
  const now = () => app.privacy.now()
  app.addHook('onRequest', async (request) => requireAdmin(await access(request)))

  async function documents() {
    const site = await app.content.getSite('/')
    const routes = await app.content.routes()
    const urls = { policy: site?.policyUrl, consent: site?.consentUrl, cookies: site?.cookiesUrl }
    return Promise.all(
      DOCUMENTS.map(async (doc) => {
        const url = urls[doc.kind] ?? null
        const text = url ? await loadPublishedText(app.db, url) : undefined
        return {
          kind: doc.kind,
          title: doc.title,
          slug: doc.slug,
          url,
          recordId: url ? (routes.byUrl.get(url)?.id ?? null) : null,
          version: text ? documentVersion(text.title, text.content ?? '') : null,
        }
      }),
    )
  }

  app.get(routeOf(app, ADMIN_API_PATHS.privacy), async () => ({
    data: {
      operator: await operatorDetails(app.db, config),
      documents: await documents(),
      retention: await app.privacy.retention.status(),
    },
  }))

  app.put(routeOf(app, ADMIN_API_PATHS.privacyOperator), async (request) => {
    // The documents name the operator: every page of every process is rendered anew (the write door).
    await app.writeDoor.write(async (unit) => {
      await saveOperator(unit.trx, config, request.body)
      unit.affectsEveryPage()
    })
    await audit(app.db, {
      at: now(),
      actor: OWNER,
      action: 'operator.save',
      detail: { fields: Object.keys(request.body as object) },
    })
    return { data: await operatorDetails(app.db, config) }
  })

  app.get(routeOf(app, ADMIN_API_PATHS.privacyAudit), async () => ({ data: await readAudit(app.db, AUDIT_LIMIT) }))

  app.get(routeOf(app, ADMIN_API_PATHS.cookieChoicesCsv), async (_request, reply) => {
    const rows = await app.db
      .selectFrom('cookieChoice')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(CHOICES_LIMIT)
      .execute()
    await audit(app.db, { at: now(), actor: OWNER, action: 'cookies.export', detail: { rows: rows.length } })
    const csv = toCsv(
      [
        ['createdAt', 'Время (UTC)'],
        ['analytics', 'Аналитика'],
        ['textVersion', 'Версия текста'],
        ['ipHash', 'Адрес (хеш)'],
        ['userAgent', 'Браузер'],
      ],
      rows.map((row) => ({ ...row, analytics: row.analytics ? 'разрешена' : 'отклонена' })),
    )
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="cookie-choices-${dateStamp(now())}.csv"`)
      .send(csv)
  })

  /** A person's data by the phone or e-mail in `?q=`; each look at it goes into the audit log. */
  async function findSubject(request: FastifyRequest, action: 'subject.search' | 'subject.export') {
    const found = await app.privacy.subjects.find(subjectKey((request.query as { q?: unknown }).q))
    await audit(app.db, {
      at: now(),
      actor: OWNER,
      action,
      detail: { leadIds: found.leads.map((lead) => lead.id), cookieChoices: found.cookieChoices.length },
    })
    return found
  }

  app.get(routeOf(app, ADMIN_API_PATHS.subject), async (request) => ({
    data: await findSubject(request, 'subject.search'),
  }))

  app.get(routeOf(app, ADMIN_API_PATHS.subjectFile), async (request, reply) => {
    const found = await findSubject(request, 'subject.export')
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="personal-data-${dateStamp(now())}.json"`)
      .send(JSON.stringify({ exportedAt: now().toISOString(), ...found }, null, 2))
  })

  app.post(routeOf(app, ADMIN_API_PATHS.eraseSubject), async (request) => {
    const body = request.body as { q?: unknown; mode?: unknown } | null
    const mode = body?.mode
    if (mode !== 'delete' && mode !== 'anonymise') {
      throw new HttpError(400, 'Выберите: удалить или обезличить', 'validation_failed', {
        mode: 'delete или anonymise',
      })
    }
    const key = subjectKey(body?.q)
    const at = now()
    const result = await app.privacy.subjects.erase(key, mode, at)
    await audit(app.db, {
      at,
      actor: OWNER,
      action: mode === 'delete' ? 'subject.delete' : 'subject.anonymise',
      detail: result,
    })
    return { data: result }
  })
}
