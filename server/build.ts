// `npm run build`: the Vike production build plus the source fingerprint `npm start` checks.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { ROOT_DIR } from './config'
import { writeFingerprint } from './build-check'

export function runBuild(): void {
  execFileSync(process.execPath, [path.join(ROOT_DIR, 'node_modules/vike/bin.js'), 'build'], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  writeFingerprint()
}

if (import.meta.url === `file://${process.argv[1]}`) runBuild()
