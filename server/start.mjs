// `npm start`: builds when the build is missing or older than the sources (the quick start's first
// run), then runs the compiled server. Plain JavaScript: no TypeScript is loaded at run time
// (docs/decisions/011-how-production-runs.md).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const main = new URL('../dist/node/main.mjs', import.meta.url)
const check = new URL('../dist/node/build-check.mjs', import.meta.url)

let fresh = false
if (fs.existsSync(main) && fs.existsSync(check)) {
  const { isBuildFresh } = await import(check.href)
  fresh = isBuildFresh()
}
if (!fresh) {
  process.stdout.write('Building the site (first start or changed sources)…\n')
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'server/build.ts'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import(main.href)
