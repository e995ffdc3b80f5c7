import { defineConfig } from 'vitest/config'

// Unit tests sit beside the code (*.test.ts[x]); cross-boundary suites live in test/.
// Files run one at a time: server and browser suites share ports, the build and 2 cores.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'renderer/**/*.test.ts', 'server/**/*.test.ts', 'test/**/*.test.ts'],
    fileParallelism: false,
    // One process for every file, one after another: each file no longer loads the server's modules
    // and starts Vike's development server anew (12 files: 131 s isolated, 90 s not). No suite
    // mocks a module or stubs the environment; state a file leaves behind is a bug in that file.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
})
