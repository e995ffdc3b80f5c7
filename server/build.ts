// `npm run build`: the Vike production build of the pages, the compiled server (esbuild, with
// source maps: docs/decisions/011) and the source fingerprint `npm start` checks.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { ROOT_DIR } from './config'
import { SERVER_BUILD_DIR, writeFingerprint } from './build-check'

export function runBuild(): void {
  execFileSync(process.execPath, [path.join(ROOT_DIR, 'node_modules/vike/bin.js'), 'build'], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  buildServer()
  writeFingerprint()
}

/** Our server code (and the `src/` it imports) as ESM; npm packages stay external, as installed. */
function buildServer(): void {
  buildSync({
    absWorkingDir: ROOT_DIR,
    entryPoints: { main: 'server/main.ts', 'build-check': 'server/build-check.ts' },
    outdir: SERVER_BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  })
}

if (import.meta.url === `file://${process.argv[1]}`) runBuild()
