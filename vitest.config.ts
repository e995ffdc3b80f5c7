import { defineConfig } from 'vitest/config'

// Unit tests sit beside the code (*.test.ts[x]); cross-boundary suites live in test/.
// Files run one at a time: server and browser suites share ports, the build and 2 cores.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'renderer/**/*.test.ts', 'server/**/*.test.ts', 'test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
})
