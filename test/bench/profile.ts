// node --import tsx test/bench/profile.ts [path] [seconds] [accept-encoding]
// (KEEP_PROFILE=<file> keeps the .cpuprofile; SUMMARISE=<file> summarises a kept one)
// Where an uncached page's CPU time goes (docs/decisions/034-uncached-render-cost.md): the
// production build with PAGE_CACHE_MB=0 under `node --cpu-prof`, pinned to CPU 1, loaded by 10
// connections until its CPU time per request settles and then for `seconds` more; the profile of the
// whole run is summed by stage (by the function a sample is in, or by what called it synchronously:
// React under vike-react's head rendering counts as the heads) and by function (self time). Shares
// are of the busy samples (idle left out).
import fs from 'node:fs'
import path from 'node:path'
import { Pool } from 'undici'
import { ADMIN_TOKEN } from '../api/helpers'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, startProdServer } from '../helpers/prod-server'
import { seedBenchSite } from './fixture'
import { pinLoadGenerator, runLoad } from './load'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
}

/** What a sample's CPU time was spent on: by the function it was in, or what called it synchronously. */
function stageOf(self: ProfileNode['callFrame'], stack: readonly ProfileNode['callFrame'][]): string {
  const under = (pattern: RegExp) => stack.some((frame) => pattern.test(`${frame.functionName}@${frame.url}`))
  const { functionName: name, url } = self
  if (name === '(garbage collector)') return 'garbage collection'
  if (under(/^getHeadElementHtml@/)) return 'React: the +Head components (vike-react renders each apart)'
  if (/node_modules\/(react|react-dom)\//.test(url)) return 'React: the page (renderToString)'
  if (/node_modules\/(kysely|better-sqlite3[^/]*)\//.test(url)) return 'data reads: Kysely and SQLite'
  if (under(/^(compressBody|brotliCompressSync|gzipSync)@/)) return 'compression'
  if (under(/^(contentSecurityPolicy|newNonce)@/)) return 'CSP'
  if (/node_modules\/vike-react\//.test(url)) return 'vike-react onRenderHtml (head tags, document)'
  if (/node_modules\/vike\/.*\/injectAssets/.test(url)) return 'Vike: asset tags injected into the HTML'
  if (/node_modules\/vike\//.test(url)) return 'Vike: renderPage (routing, hooks, pageContext, config)'
  if (/node_modules\/(fastify|find-my-way|avvio|@fastify)/.test(url)) return 'Fastify'
  if (/async_hooks/.test(url)) return 'promise hooks (AsyncLocalStorage)'
  if (/\/dist\/server\//.test(url)) return 'page components and helpers (ours, in the Vike build)'
  if (/\/dist\/node\//.test(url)) return 'server code (ours: page data, page answer)'
  if (/^(writev|write|writeGeneric|writevGeneric)$/.test(name) || /node:(_http|net|buffer|internal\/stream)/.test(url))
    return 'Node: HTTP, sockets, buffers'
  return 'other (microtasks, timers, events)'
}

function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const bySelf = new Map<string, number>()
  const byStage = new Map<string, number>()
  let busy = 0
  for (const id of profile.samples) {
    const node = byId.get(id)!
    if (node.callFrame.functionName === '(idle)') continue
    busy++
    const self = `${node.callFrame.functionName || '(anonymous)'} ${path.basename(node.callFrame.url)}`
    bySelf.set(self, (bySelf.get(self) ?? 0) + 1)
    const stack: ProfileNode['callFrame'][] = []
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame)
    const stage = stageOf(node.callFrame, stack)
    byStage.set(stage, (byStage.get(stage) ?? 0) + 1)
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => ({ name, '%': ((100 * count) / busy).toFixed(1) }))
  return { busy, stages: top(byStage, 30), self: top(bySelf, Number(process.env.TOP ?? 30)) }
}

function print(profile: Profile) {
  const { busy, stages, self } = summarise(profile)
  console.log(`${busy} busy samples. By stage:`)
  console.table(stages)
  console.log('Functions (self):')
  console.table(self)
}

const [urlPath = '/', seconds = '15', encoding = ''] = process.argv.slice(2)
// SUMMARISE=<file.cpuprofile>: only print the summary of a profile kept before (KEEP_PROFILE).
if (process.env.SUMMARISE) {
  print(JSON.parse(fs.readFileSync(process.env.SUMMARISE, 'utf8')))
  process.exit(0)
}
ensureBuild()
pinLoadGenerator(0)
const dir = tempDir('vitrina-profile-')
const profDir = path.join(dir, 'prof')
try {
  console.log(`Catalogue: home page with ${await seedBenchSite(dir, ADMIN_TOKEN)}`)
  const server = await startProdServer({ LOG_LEVEL: 'error', PAGE_CACHE_MB: '0' }, dir, {
    cpu: 1,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  })
  const pool = new Pool(server.url, { connections: 10 })
  const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {}
  const run = await runLoad(
    pool,
    server.child.pid!,
    { method: 'GET', path: urlPath },
    headers,
    Number(seconds) * 1000,
    10,
  )
  await pool.close()
  await server.stop('SIGINT')
  console.log(`${urlPath}: ${run.cpuMsPerRequest.toFixed(3)} CPU ms/req (with the profiler on), ${run.statuses}`)
  const file = fs.readdirSync(profDir).find((name) => name.endsWith('.cpuprofile'))!
  print(JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')))
  if (process.env.KEEP_PROFILE) fs.copyFileSync(path.join(profDir, file), process.env.KEEP_PROFILE)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
