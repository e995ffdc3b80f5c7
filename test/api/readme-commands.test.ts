// The README's command-line lines, run as written (in a shell, through npm, from a folder of the
// checkout): the files they write hold exactly what the tools wrote, so the export imports again
// and the CSV opens in Excel. Only the example site addresses are pointed at test servers.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../../server/config/config'
import { buildTestApp, listen, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN } from './helpers'

const README = fs.readFileSync(path.join(ROOT_DIR, 'README.md'), 'utf8')

/** The shell lines of the README's section about the command line, comments dropped. */
function readmeLines(): string[] {
  const section = README.slice(README.indexOf('## Content and leads from the command line'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
}

let source: TestApp
let target: TestApp
let sourceUrl: string
let targetUrl: string
let workDir: string

beforeAll(async () => {
  source = await buildTestApp({ ADMIN_TOKEN, LEAD_MIN_FILL_SECONDS: '0' })
  target = await buildTestApp({ ADMIN_TOKEN, SEED_DEMO: 'false' })
  ;[sourceUrl, targetUrl] = await Promise.all([listen(source), listen(target)])
  const lead = await source.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Анна', phone: '+7 912 345-67-89', email: 'anna@example.ru', consent: true },
  })
  expect(lead.statusCode).toBe(201)
  // A folder inside the checkout, as an operator would run them from (npm finds package.json above).
  fs.mkdirSync(path.join(ROOT_DIR, '.test-tmp'), { recursive: true })
  workDir = fs.mkdtempSync(path.join(ROOT_DIR, '.test-tmp', 'readme-'))
})

afterAll(async () => {
  await source?.close()
  await target?.close()
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true })
})

describe("the README's command-line section", () => {
  it('runs line by line as written and leaves clean files', async () => {
    const lines = readmeLines()
    expect(lines[0]).toMatch(/^export VITRINA_URL=\S+ ADMIN_TOKEN=/)
    const env: NodeJS.ProcessEnv = { ...process.env, VITRINA_URL: sourceUrl, ADMIN_TOKEN }
    delete env.INIT_CWD
    const outputs: string[] = []
    for (const line of lines.slice(1)) {
      const command = line.replace('http://localhost:3000', targetUrl)
      // Asynchronously: the servers answering these commands live in this process.
      const { stdout } = await promisify(execFile)('bash', ['-c', command], { cwd: workDir, env, timeout: 120_000 })
      outputs.push(stdout)
    }

    const site = fs.readFileSync(path.join(workDir, 'site.json'), 'utf8')
    expect(site.startsWith('{')).toBe(true)
    expect(JSON.parse(site).structure.length).toBeGreaterThan(20)

    const csv = fs.readFileSync(path.join(workDir, 'leads.csv'), 'utf8')
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const [header, row] = csv.slice(1).split('\r\n')
    expect(header.split(';').slice(0, 3)).toEqual(['"Номер"', '"Дата"', '"Имя"'])
    expect(row).toContain('Анна')

    // The deliveries and retry lines printed their answers and nothing of npm's.
    expect(outputs.join('')).not.toMatch(/^> /m)
  }, 180_000)

  it('imported the export into the second site, which now serves the catalogue', async () => {
    const page = await target.app.inject({ method: 'GET', url: '/structure/product' })
    expect(page.statusCode).toBe(200)
  })
})
