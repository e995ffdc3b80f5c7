// Decides whether the production build matches the sources, by a fingerprint of every input
// file's path, size and content hash, written next to the build.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT_DIR } from './config/config'

const INPUTS = [
  'pages',
  'renderer',
  'server', // with server/patches: patched dependency code goes into the client bundle too (decision 018)
  'src',
  'vite.config.ts',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
]
const FINGERPRINT_FILE = path.join(ROOT_DIR, 'dist/.source-fingerprint')
/** The compiled server: `npm start` and PM2 run `main.mjs` from here. */
export const SERVER_BUILD_DIR = path.join(ROOT_DIR, 'dist/node')

function listFiles(entry: string): string[] {
  const full = path.join(ROOT_DIR, entry)
  if (!fs.existsSync(full)) return []
  if (fs.statSync(full).isFile()) return [entry]
  return (fs.readdirSync(full, { recursive: true }) as string[])
    .map((f) => path.join(entry, f))
    .filter((f) => !/\.test\.tsx?$/.test(f) && fs.statSync(path.join(ROOT_DIR, f)).isFile())
    .sort()
}

function sourceFingerprint(): string {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(listFiles)) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(ROOT_DIR, file)))
      .update('\0')
  }
  return hash.digest('hex')
}

export function isBuildFresh(): boolean {
  if (!fs.existsSync(path.join(ROOT_DIR, 'dist/server/entry.mjs'))) return false
  if (!fs.existsSync(path.join(SERVER_BUILD_DIR, 'main.mjs'))) return false
  if (!fs.existsSync(FINGERPRINT_FILE)) return false
  return fs.readFileSync(FINGERPRINT_FILE, 'utf8').trim() === sourceFingerprint()
}

export function writeFingerprint(): void {
  fs.writeFileSync(FINGERPRINT_FILE, `${sourceFingerprint()}\n`)
}
