// node --import tsx test/bench/instructions.ts [path] [measured] [warm]
// Instructions per uncached answer of one page on the production build, counted by valgrind's
// callgrind: unlike CPU time, the count does not move with whatever else the machine is doing, so
// two builds (with and without a patch, docs/decisions/018) compare on a busy machine. The server
// runs with V8's --predictable and --single-threaded (no timers or helper threads deciding when the
// collector or the compiler runs); identical builds then agree within about 1 %. Needs valgrind
// (Debian's package). The page cache is off, so every answer is a rendering.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { ROOT_DIR } from '../../server/config/config'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, freePort } from '../helpers/prod-server'

const [urlPath = '/', measured = '150', warm = '300'] = process.argv.slice(2)

ensureBuild()
const dir = tempDir('vitrina-instructions-')
const port = await freePort()
const out = path.join(dir, 'callgrind.out')
// vgdb (callgrind_control) finds the process by user and host name: the same for both sides.
const names = { USER: process.env.USER ?? 'root', HOST: '127.0.0.1' }
const server = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${out}`,
    '--smc-check=all-non-file', // V8 writes the code it runs
    process.execPath,
    '--predictable',
    '--single-threaded',
    'dist/node/main.mjs',
  ],
  {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...names,
      NODE_ENV: 'production',
      PORT: String(port),
      PAGE_CACHE_MB: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: `file:${path.join(dir, 'site.db')}`,
      SEED_DEMO: 'true',
      MEDIA_DIR: path.join(dir, 'media'),
      LEAD_JOURNAL_DIR: path.join(dir, 'journal'),
    },
  },
)
let output = ''
server.stdout.on('data', (chunk) => (output += chunk))
server.stderr.on('data', (chunk) => (output += chunk))
const control = (...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(server.pid)], { env: { ...process.env, ...names } })

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const get = () =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      .on('error', reject)
  })

try {
  const deadline = Date.now() + 600_000
  while (!output.includes('is running at')) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  for (let i = 0; i < Number(warm); i++) await get()
  control('-i', 'on')
  for (let i = 0; i < Number(measured); i++) {
    const status = await get()
    if (status >= 500) throw new Error(`${urlPath} answered ${status}`)
  }
  control('-i', 'off')
  control('-d')
  let total = 0
  for (const file of fs.readdirSync(dir).filter((name) => name.startsWith('callgrind.out'))) {
    total += Number(/^totals:\s+(\d+)/m.exec(fs.readFileSync(path.join(dir, file), 'utf8'))?.[1] ?? 0)
  }
  console.log(`${urlPath}: ${(total / Number(measured) / 1e6).toFixed(2)} M instructions per answer`)
} finally {
  server.kill('SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
}
