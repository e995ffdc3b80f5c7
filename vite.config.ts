import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react(), vike()],
  // One stylesheet (12 KB, 3.4 KB gzipped) for every page instead of up to seven small ones that
  // each block the first paint: Lighthouse's mobile run counts ~100 ms per extra request
  // (docs/decisions/016-fast-pages.md).
  build: { cssCodeSplit: false },
  // The demo database, media and test scratch files live outside the module graph.
  server: { watch: { ignored: ['**/data/**', '**/.test-tmp/**', '**/dist/**'] } },
})
