// Leads have one repository: only server/leads/store/ queries the `feedback` table (the lead and its
// consent record), so a question about what is stored of a lead, or who reads it, has one place
// to look (docs/decisions/023-lead-dead-letters-and-idempotency.md). Migrations change the table;
// they are the only other place that names it.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../../server/config/config'

const REPOSITORY = path.join('server', 'leads', 'store')
const MIGRATIONS = path.join('server', 'data', 'migrations')

const OUTBOX = path.join('server', 'leads', 'store', 'delivery-outbox.ts')

// A query builder call on the table, a model definition naming it, or SQL text reading or writing it.
const queriesOf = (table: string) => [
  new RegExp(
    `\\b(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|alterTable|innerJoin|leftJoin|rightJoin|fullJoin)\\(\\s*['"\`]${table}\\b`,
  ),
  new RegExp(`\\btable:\\s*['"\`]${table}['"\`]`),
  new RegExp(`\\b(?:from|into|update|join)\\s+"?${table}\\b`, 'i'),
]
const QUERIES_FEEDBACK = queriesOf('feedback')

function serverFiles(): string[] {
  return (fs.readdirSync(path.join(ROOT_DIR, 'server'), { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join('server', file))
}

const queries = (patterns: RegExp[]) => (file: string) => {
  const text = fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')
  return patterns.some((pattern) => pattern.test(text))
}
const queriesFeedback = queries(QUERIES_FEEDBACK)

describe('the leads repository', () => {
  it('is the only code outside the migrations that queries the feedback table', () => {
    const outside = serverFiles()
      .filter((file) => !file.startsWith(REPOSITORY + path.sep) && !file.startsWith(MIGRATIONS + path.sep))
      .filter(queriesFeedback)
    expect(outside).toEqual([])
  })

  it('leaves the delivery rows to the outbox', () => {
    const outside = serverFiles()
      .filter((file) => file !== OUTBOX && !file.startsWith(MIGRATIONS + path.sep))
      .filter(queries(queriesOf('leadDelivery')))
    expect(outside).toEqual([])
    expect(queries(queriesOf('leadDelivery'))(OUTBOX)).toBe(true)
  })

  it('is found by the same check (the check sees a query when there is one)', () => {
    const inside = serverFiles().filter((file) => file.startsWith(REPOSITORY + path.sep) && queriesFeedback(file))
    expect(inside.sort()).toEqual(
      [
        'lead-model.ts',
        'lead-orders.ts',
        'lead-privacy.ts',
        'lead-queries.ts',
        'lead-search-query.ts',
        'lead-store.ts',
      ].map((name) => path.join(REPOSITORY, name)),
    )
  })
})
