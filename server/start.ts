// `npm start`: build when the build is missing or older than the sources, then serve it.
import { isBuildFresh } from './build-check'
import { runBuild } from './build'

if (!isBuildFresh()) {
  process.stdout.write('Building the site (first start or changed sources)…\n')
  runBuild()
}
await import('./main')
