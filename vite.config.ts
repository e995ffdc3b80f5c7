import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react(), vike()],
  // The demo database, media and test scratch files live outside the module graph.
  server: { watch: { ignored: ['**/data/**', '**/.test-tmp/**', '**/dist/**'] } },
})
