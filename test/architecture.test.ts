// The owner's layering: pages → src, renderer → src, server → src; src imports none of them,
// and nothing but server/ reaches server/. Checked on every import specifier in the tree. src/ is
// what the browser gets: it imports only browser-safe packages, and no import hides its target.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config/config'
import { importSpecs } from './helpers/import-specs'

function sourceFiles(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT_DIR, dir), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f))
}

function importsOf(file: string): string[] {
  return importSpecs(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')).map(({ spec }) => spec)
}

function topFolderOf(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const target = path.relative(ROOT_DIR, path.resolve(ROOT_DIR, path.dirname(file), spec))
  return target.split(path.sep)[0]
}

/** What src/ may import from node_modules: packages that run in the browser as well as in Node. */
const BROWSER_PACKAGES = new Set(['react', 'react-dom', '@react-input/mask', 'ajv', 'ajv-formats', 'ajv-errors'])

function packageOf(spec: string): string {
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Dynamic imports and requires whose specifier is not a plain string literal. */
function hiddenImports(text: string): string[] {
  return [...text.matchAll(/\b(?:import|require)\s*\(([^)]*)\)/g)]
    .filter((m) => !/^\s*(['"`])[^'"`$]*\1\s*$/.test(m[1]))
    .map((m) => m[0])
}

const RULES: Record<string, string[]> = {
  src: ['pages', 'renderer', 'server', 'test'],
  pages: ['server', 'test'],
  renderer: ['server', 'pages', 'test'],
  server: ['pages', 'renderer', 'test'],
}

describe('import boundaries', () => {
  for (const [folder, forbidden] of Object.entries(RULES)) {
    it(`${folder}/ imports none of ${forbidden.join(', ')}`, () => {
      const violations = sourceFiles(folder).flatMap((file) =>
        importsOf(file)
          .filter((spec) => forbidden.includes(topFolderOf(file, spec) ?? ''))
          .map((spec) => `${file} → ${spec}`),
      )
      expect(violations).toEqual([])
    })
  }

  it('src/ imports only packages the browser can run, and names every import it makes', () => {
    const offenders = sourceFiles('src')
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')
        const packages = importsOf(file)
          .filter((spec) => !spec.startsWith('.') && !BROWSER_PACKAGES.has(packageOf(spec)))
          .map((spec) => `${file} → ${spec}`)
        // A specifier in a variable (or built at run time) is an import no bundler or check can follow.
        const hidden = hiddenImports(text).map((call) => `${file} → ${call}`)
        return [...packages, ...hidden]
      })
    expect(offenders).toEqual([])
  })

  it('catches the import a variable hides, and a Node-only package in src/', () => {
    const text = "const UNDICI = 'undici'\nawait import(/* @vite-ignore */ UNDICI)\nrequire(name)\nimport('./LeadForm')"
    expect(hiddenImports(text)).toEqual(['import(/* @vite-ignore */ UNDICI)', 'require(name)'])
    expect(BROWSER_PACKAGES.has(packageOf('undici'))).toBe(false)
    expect(BROWSER_PACKAGES.has(packageOf('react-dom/client'))).toBe(true)
  })

  it('src/ stays isomorphic: no process.env and no node: modules outside *.server.ts files', () => {
    const offenders = sourceFiles('src')
      .filter((f) => !/\.server\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => {
        const text = fs.readFileSync(path.join(ROOT_DIR, f), 'utf8')
        return /process\.env/.test(text) || importsOf(f).some((s) => s.startsWith('node:'))
      })
    expect(offenders).toEqual([])
  })
})

/**
 * Calls of the model API's `many` whose answer's `next` is never read (issue #27: no silent
 * truncation). A call passes when its answer is destructured with `next` or kept in a variable
 * whose `.next` the file reads; `manyAll` walks every page itself.
 */
function manyCallsIgnoringNext(text: string): string[] {
  const offenders: string[] = []
  for (const call of text.matchAll(/\.many\s*(?:<[^>]*>)?\s*\(/g)) {
    const before = text.slice(Math.max(0, call.index - 200), call.index)
    const destructured = /const\s*\{([^}]*)\}\s*=\s*(?:await\s+)?[\w.]*$/.exec(before)
    if (destructured && /\bnext\b/.test(destructured[1])) continue
    const bound = /(?:const|let)\s+(\w+)\s*=\s*(?:await\s+)?[\w.]*$/.exec(before)
    if (bound && new RegExp(`\\b${bound[1]}\\.next\\b`).test(text)) continue
    const line = text.slice(0, call.index).split('\n').length
    offenders.push(`line ${line}`)
  }
  return offenders
}

describe('no silent truncation', () => {
  it('product code that calls many reads its next (or walks every page with manyAll)', () => {
    const files = ['server', 'src', 'pages', 'renderer', 'test/bench'].flatMap(sourceFiles)
    const offenders = files
      .filter((f) => !/\.test\.tsx?$/.test(f) && f !== path.join('src', 'api', 'model-api.ts'))
      .flatMap((file) =>
        manyCallsIgnoringNext(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')).map((at) => `${file} ${at}`),
      )
    expect(offenders).toEqual([])
  })

  it('tells a call that ignores next from one that reads it', () => {
    expect(manyCallsIgnoringNext("const rows = await api.many('structure', q)\nuse(rows.data)")).toEqual(['line 1'])
    expect(manyCallsIgnoringNext("api.models.many<Row>('structure', q).then(set)")).toEqual(['line 1'])
    expect(manyCallsIgnoringNext("const { data, next } = await api.many('structure', q)")).toEqual([])
    expect(manyCallsIgnoringNext("const page = await api.models.many<Row>('x', q)\nif (page.next) go()")).toEqual([])
    expect(manyCallsIgnoringNext("const all = await api.manyAll('structure', q)")).toEqual([])
  })
})

/** Lines of a file as an editor numbers them (a final newline opens no line). */
function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length
}

describe('file size', () => {
  it('keeps every source file outside tests at 300 lines or fewer', () => {
    const offenders = ['server', 'src', 'pages', 'renderer']
      .flatMap(sourceFiles)
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .map((file) => ({ file, lines: lineCount(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')) }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(offenders).toEqual([])
  })

  it('counts lines as an editor does', () => {
    expect(lineCount('a\nb\n')).toBe(2)
    expect(lineCount('a\nb')).toBe(2)
    expect(lineCount(`${'x\n'.repeat(301)}`)).toBe(301)
  })
})

/** The tables of the structure records and their parts, which only the write door's units write. */
const CONTENT_TABLES = [
  'structure',
  'goneUrl',
  'movedUrl',
  'siteIndex',
  'sliderItem',
  'advantage',
  'product',
  'productImage',
  'productProperty',
  'productVariant',
  'searchIndex',
  'searchWord',
  'contentVersion',
]

/**
 * The stores that write them: each writer takes the write door's unit (content/content-write.ts),
 * never a bare connection; search-index.ts and tree-visibility.ts are called by the door itself;
 * db.ts bumps the version for it. Migrations are frozen history.
 */
const CONTENT_WRITERS = [
  'server/content/structure-store.ts',
  'server/content/structure-tree.ts',
  'server/content/moved-urls.ts',
  'server/content/tree-visibility.ts',
  'server/catalogue/demo-seed.ts',
  'server/catalogue/products/product-rows.ts',
  'server/catalogue/products/variant-rows.ts',
  'server/catalogue/search/search-index.ts',
  'server/model-api/write-rows.ts',
  'server/data/db.ts',
].map((file) => path.join(...file.split('/')))

/** Write statements of a text: Kysely's builders with their table (`?` when not a literal) and raw SQL. */
function contentWrites(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
  const builders = [...code.matchAll(/\.(insertInto|updateTable|deleteFrom)\(\s*(?:(['"])(\w+)\2)?/g)]
    .map((m) => ({ call: m[1], table: m[3] ?? '?' }))
    .filter(({ table }) => table === '?' || CONTENT_TABLES.includes(table))
    .map(({ call, table }) => `${call}(${table})`)
  const raw = [
    ...code.matchAll(
      new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+"?(${CONTENT_TABLES.join('|')})\\b`, 'gi'),
    ),
  ].map((m) => `sql ${m[1]} ${m[2]}`)
  return [...builders, ...raw]
}

describe('one door for content writes', () => {
  const serverFiles = () =>
    sourceFiles('server').filter(
      (f) => !/\.test\.tsx?$/.test(f) && !f.startsWith(path.join('server', 'data', 'migrations')),
    )

  it('no file but the stores writes the tables of the structure records and their parts', () => {
    const offenders = serverFiles()
      .filter((file) => !CONTENT_WRITERS.includes(file))
      .flatMap((file) => contentWrites(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')).map((w) => `${file}: ${w}`))
    expect(offenders).toEqual([])
  })

  it('only the product-row repository writes product rows; the generic writers refuse them', () => {
    // Its variants' part (decision 043) writes productVariant rows and their option rows.
    const repository = ['product-rows.ts', 'variant-rows.ts'].map((f) =>
      path.join('server', 'catalogue', 'products', f),
    )
    const productWrite =
      /^(insertInto|updateTable|deleteFrom)\((product|productImage|productProperty|productVariant)\)$|^sql \S+ (product|productImage|productProperty|productVariant)$/i
    const offenders = serverFiles()
      .filter((file) => !repository.includes(file))
      .flatMap((file) =>
        contentWrites(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8'))
          .filter((w) => productWrite.test(w))
          .map((w) => `${file}: ${w}`),
      )
    expect(offenders).toEqual([])
    // Writes to a table named at run time: the model API's generic SQL, which refuses the product
    // tables, and two whole-record jobs of the structure repository (a record deleted with its parts,
    // a stored file renamed in every image column).
    const dynamic = serverFiles().filter((file) =>
      contentWrites(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')).some((w) => w.endsWith('(?)')),
    )
    expect(dynamic.sort()).toEqual(
      [path.join('server', 'content', 'structure-store.ts'), path.join('server', 'model-api', 'write-rows.ts')].sort(),
    )
    const writeRows = fs.readFileSync(path.join(ROOT_DIR, 'server', 'model-api', 'write-rows.ts'), 'utf8')
    const generic = [...writeRows.matchAll(/\.(insertInto|updateTable|deleteFrom)\(\s*([\w.]+)/g)].map((m) => m[2])
    expect(generic.every((table) => table === 'table' || table === 'writableTable')).toBe(true)
  })

  it('only the door bumps the version, reindexes search and queues IndexNow; the stores open no transaction', () => {
    const calls = (name: string) =>
      serverFiles().filter((file) =>
        new RegExp(`\\b${name}\\(`).test(
          fs.readFileSync(path.join(ROOT_DIR, file), 'utf8').replace(/(^|\s)\/\/.*$/gm, '$1'),
        ),
      )
    const door = path.join('server', 'catalogue', 'write-door.ts')
    const db = path.join('server', 'data', 'db.ts')
    const searchIndex = path.join('server', 'catalogue', 'search', 'search-index.ts')
    const outbox = path.join('server', 'catalogue', 'indexnow', 'indexnow-outbox.ts')
    expect(calls('bumpContentVersion').sort()).toEqual([door, db].sort())
    // search-index.ts fills the rows a database made before search lacks, at start-up.
    expect(calls('reindexProducts').sort()).toEqual([door, searchIndex].sort())
    expect(calls('enqueueUrls').sort()).toEqual([door, outbox].sort())
    const transactions = CONTENT_WRITERS.filter(
      (file) =>
        file !== db &&
        file !== searchIndex &&
        /\bwriteTransaction\(/.test(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')),
    )
    expect(transactions).toEqual([])
  })

  it('finds a write however it is spelled', () => {
    expect(contentWrites("await trx\n  .updateTable('product')\n  .set(x)")).toEqual(['updateTable(product)'])
    expect(contentWrites('db.insertInto(model.table)')).toEqual(['insertInto(?)'])
    expect(contentWrites("db.deleteFrom('feedback')")).toEqual([])
    expect(contentWrites('sql`UPDATE "structure" SET x = 1`')).toEqual(['sql UPDATE structure'])
    expect(contentWrites("// db.deleteFrom('structure')")).toEqual([])
  })
})
