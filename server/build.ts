// `npm run build`: the Vike production build of the pages, the compiled server (esbuild, with
// source maps: docs/decisions/011) and the source fingerprint `npm start` checks.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { buildSync } from 'esbuild'
import { ROOT_DIR } from './config/config'
import { SERVER_BUILD_DIR, writeFingerprint } from './build-check'

export function runBuild(): void {
  execFileSync(process.execPath, [path.join(ROOT_DIR, 'node_modules/vike/bin.js'), 'build'], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  precompressAssets(path.join(ROOT_DIR, 'dist/client/assets'))
  buildServer()
  writeFingerprint()
}

const COMPRESSIBLE = /\.(?:js|css|svg|json)$/

/**
 * Brotli (quality 11) and gzip (level 9) twins of every built asset, served in its place by the
 * static plugin: a phone downloads about 15 % less JavaScript than with the on-the-fly quality
 * 4 brotli, and no request spends CPU compressing a file that never changes
 * (docs/decisions/016-fast-pages.md).
 */
function precompressAssets(dir: string): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue
    const file = path.join(entry.parentPath, entry.name)
    const body = fs.readFileSync(file)
    if (body.length < 1024) continue
    const brotli = zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    })
    fs.writeFileSync(`${file}.br`, brotli)
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }))
  }
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
