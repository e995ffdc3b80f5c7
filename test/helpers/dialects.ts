// The same suite on both databases the site runs on: a fresh SQLite file, and a fresh schema on the
// PostgreSQL server named by TEST_DATABASE_URL (skipped without it). Iterate every dialect and gate
// the suite with describe.runIf(dialect.available): a run without PostgreSQL then reports its
// suites as skipped instead of leaving them out unseen.
import type { BuildOptions } from '../../server/app'
import { buildTestApp, type TestApp } from './build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from './postgres'

export interface Dialect {
  readonly name: 'SQLite' | 'PostgreSQL'
  readonly available: boolean
  /** buildTestApp on this database; close() drops a PostgreSQL schema too */
  build(env?: Record<string, string>, options?: BuildOptions): Promise<TestApp>
}

export const DIALECTS: readonly Dialect[] = [
  { name: 'SQLite', available: true, build: (env = {}, options = {}) => buildTestApp(env, options) },
  {
    name: 'PostgreSQL',
    available: Boolean(TEST_DATABASE_URL),
    async build(env = {}, options = {}) {
      const schema = await createTestSchema()
      const t = await buildTestApp({ ...env, DATABASE_URL: schema.url }, options)
      return {
        ...t,
        async close() {
          await t.close()
          await schema.drop()
        },
      }
    },
  },
]
