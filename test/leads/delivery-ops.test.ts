// What an operator does with lead delivery: watches /healthz and /readyz, lists the deliveries
// that did not go out (npm run leads -- deliveries), puts them back (retry), and backs up.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLite } from '../../server/data/sqlite-driver'
import { backupMain } from '../../server/tools/backup'
import { leadsMain } from '../../server/tools/leads'
import { readToolConfig } from '../../server/tools/tool-config'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, collectOutput as collect, listen, tempDir, type TestApp } from '../helpers/build-test-app'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'

const SECRET = `whsec_${Buffer.from('yet another secret, 24 bytes or more').toString('base64')}`

let hook: HttpReceiver
let site: TestApp
let url: string

beforeAll(async () => {
  hook = await startHttpReceiver()
  site = await buildTestApp({
    ADMIN_TOKEN,
    LEAD_RATE_LIMIT: '0',
    LEAD_WEBHOOK_URL: `${hook.url}/hook`,
    LEAD_WEBHOOK_SECRET: SECRET,
  })
  url = await listen(site)
})

afterAll(async () => {
  await site?.close()
  await hook?.close()
})

async function postLead(email: string): Promise<number> {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Олег', phone: '8 912 345 67 89', email, consent: true },
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ data: { id: number } }>().data.id
}

async function delivery(leadId: number) {
  return site.app.db.selectFrom('leadDelivery').selectAll().where('feedbackId', '=', leadId).executeTakeFirstOrThrow()
}

describe('health', () => {
  it('answers /healthz while the process runs, uncached', async () => {
    const response = await site.app.inject({ url: '/healthz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('reports readiness with the outbox backlog and no personal data', async () => {
    hook.answers.push({ status: 503 })
    const id = await postLead('readyz-secret@example.ru')
    await waitFor(async () => (await delivery(id)).lastError !== null, 'the failed try')
    // The details are the owner's (docs/contract.md §2): the admin token shows them.
    const response = await site.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const body = response.json<Record<string, any>>()
    expect(body).toMatchObject({ status: 'ready', database: 'ok', pendingMigrations: 0 })
    expect(body.delivery.channels).toEqual(['webhook'])
    expect(body.delivery.pending).toBeGreaterThanOrEqual(1)
    expect(body.delivery.oldestPendingSeconds).toBeGreaterThanOrEqual(0)
    expect(response.body).not.toContain('readyz-secret')
    expect(response.body).not.toContain('Олег')
  })
})

describe('npm run leads -- deliveries | retry', () => {
  it('lists a dead delivery with its error and puts it back in the queue, which delivers it', async () => {
    hook.answers.push({ status: 410 })
    const id = await postLead('dead@example.ru')
    await waitFor(async () => (await delivery(id)).status === 'dead', 'the dead delivery')
    const config = readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN })

    const { id: deliveryId } = await delivery(id)
    const list = collect()
    await leadsMain(['deliveries'], config, list.out)
    const row = list
      .text()
      .split('\n')
      .find((line) => line.startsWith(`${deliveryId} `))
    expect(row).toMatch(new RegExp(`^\\d+\\s+${id}\\s+webhook\\s+dead\\s+1\\s+-\\s+Webhook answered 410$`))
    expect(list.text()).not.toContain('dead@example.ru')

    const retried = collect()
    await leadsMain(['retry', '--dead'], config, retried.out)
    expect(retried.text()).toMatch(new RegExp(`^Queued again: .*\\b${deliveryId}\\b`))
    await waitFor(async () => (await delivery(id)).status === 'sent', 'delivery after the retry')
  })

  it('retries one delivery by id, and refuses without the token or with a bad id', async () => {
    hook.answers.push({ status: 422 })
    const id = await postLead('one@example.ru')
    await waitFor(async () => (await delivery(id)).status === 'dead', 'the dead delivery')
    const { id: deliveryId } = await delivery(id)
    const out = collect()
    await leadsMain(['retry', String(deliveryId)], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out.out)
    expect(out.text()).toBe(`Queued again: ${deliveryId}\n`)
    await waitFor(async () => (await delivery(id)).status === 'sent', 'delivery after the retry')

    await expect(leadsMain(['deliveries'], readToolConfig({ VITRINA_URL: url }))).rejects.toThrow(/ADMIN_TOKEN/)
    await expect(leadsMain(['retry', 'abc'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }))).rejects.toThrow(
      /delivery ids or --dead/,
    )
    const anonymous = await site.app.inject({ url: '/api/deliveries' })
    expect(anonymous.statusCode).toBe(401)
    const wrong = await site.app.inject({
      url: '/api/deliveries',
      headers: { authorization: 'Bearer wrong-token-123456' },
    })
    expect(wrong.statusCode).toBe(403)
  })
})

describe('npm run backup', () => {
  it('copies the database while the site runs, and the copy opens with every lead in it', async () => {
    const id = await postLead('backup@example.ru')
    const dir = tempDir('vitrina-backup-')
    try {
      const out = collect()
      await backupMain(
        [dir],
        { DATABASE_URL: `file:${path.join(site.dir, 'site.db')}`, MEDIA_DIR: site.config.mediaDir },
        out.out,
      )
      const [folder] = fs.readdirSync(dir)
      expect(folder).toMatch(/^vitrina-\d{8}-\d{6}$/)
      expect(out.text()).toContain(`Backup written to ${path.join(dir, folder)}`)
      const copy = new SQLite(path.join(dir, folder, 'site.db'), { readonly: true })
      try {
        const row = copy.prepare('SELECT email FROM feedback WHERE id = ?').get(id) as { email: string }
        expect(row.email).toBe('backup@example.ru')
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
      } finally {
        copy.close()
      }
      // The demo shop's images are in the media folder; the copy has them all.
      const count = (folder: string): number =>
        fs
          .readdirSync(folder, { withFileTypes: true })
          .reduce((n, entry) => n + (entry.isDirectory() ? count(path.join(folder, entry.name)) : 1), 0)
      expect(count(path.join(dir, folder, 'media'))).toBe(count(site.config.mediaDir))
      expect(count(site.config.mediaDir)).toBeGreaterThan(0)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses to run without a folder', async () => {
    await expect(backupMain([], {})).rejects.toThrow(/usage/)
  })
})
