// No import runs back up (issue 43's leftovers). Across src/, server/, pages/ and renderer/:
// - the folders' imports form no cycle, of two folders (`components/` ↔ `islands/`), of a folder
//   and its subfolder (`delivery/` ↔ `delivery/channels/`) or longer; a file is its folder's;
// - no file imports, directly or through others, a file that imports it. Type-only imports are
//   left out (they are erased from the code that runs). This was ESLint's `import/no-cycle`, which
//   took 137 of lint's 196 s (docs/decisions/008-lint-and-format.md).
// A cycle is found as a strongly connected component of the graph (Tarjan's algorithm).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config/config'
import { importSpecs, type ImportSpec } from './helpers/import-specs'

const TREES = ['src', 'server', 'pages', 'renderer']

type Graph = Map<string, Map<string, string>>

/** Every source file outside tests, from the repository's root. */
function sourceFiles(): string[] {
  return TREES.flatMap((tree) =>
    (fs.readdirSync(path.join(ROOT_DIR, tree), { recursive: true }) as string[])
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => path.join(tree, f)),
  )
}

interface Import extends Omit<ImportSpec, 'spec'> {
  /** The relative specifier resolved from the repository's root, without an extension added */
  target: string
}

/** A file's relative imports and re-exports, static and dynamic. */
function importsOf(file: string, text = fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')): Import[] {
  return importSpecs(text)
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ spec, ...rest }) => ({
      target: path.relative(ROOT_DIR, path.resolve(ROOT_DIR, path.dirname(file), spec)),
      ...rest,
    }))
}

/** Folder → folder it imports → one file that does (for the message). */
function folderGraph(): Graph {
  const graph: Graph = new Map()
  for (const file of sourceFiles()) {
    const from = path.dirname(file)
    for (const { target, bare } of importsOf(file)) {
      if (bare) continue
      const full = path.join(ROOT_DIR, target)
      const isFolder = fs.existsSync(full) && fs.statSync(full).isDirectory()
      const to = isFolder ? target : path.dirname(target)
      if (to === from) continue
      const edges = graph.get(from) ?? new Map<string, string>()
      if (!edges.has(to)) edges.set(to, file)
      graph.set(from, edges)
    }
  }
  return graph
}

/** File → file it imports for its code (type-only imports left out) → the same file (for the message). */
function fileGraph(): Graph {
  const files = sourceFiles()
  const known = new Set(files)
  const resolve = (target: string) =>
    [target, ...['.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'].map((ext) => target + ext)].find((f) =>
      known.has(f),
    )
  const graph: Graph = new Map()
  for (const file of files) {
    const edges = new Map<string, string>()
    for (const { target, typeOnly } of importsOf(file)) {
      const to = typeOnly ? undefined : resolve(target)
      if (to !== undefined && to !== file) edges.set(to, file)
    }
    graph.set(file, edges)
  }
  return graph
}

/** The graph's cycles: each strongly connected component of more than one node, its nodes sorted. */
export function graphCycles(graph: Graph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) cycles.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

describe('folders import in one direction', () => {
  it('no folder imports, directly or through others, a folder that imports it', () => {
    const graph = folderGraph()
    const described = graphCycles(graph).map((cycle) =>
      cycle
        .flatMap((from) =>
          [...(graph.get(from) ?? [])].filter(([to]) => cycle.includes(to)).map(([to, file]) => `${file} → ${to}/`),
        )
        .join('; '),
    )
    expect(described).toEqual([])
  })

  it('finds a cycle of two folders, of a folder and its subfolder, and of three; none in a chain', () => {
    const graphOf = (edges: string[]): Graph => {
      const graph: Graph = new Map()
      for (const edge of edges) {
        const [from, to] = edge.split('>')
        graph.set(from, (graph.get(from) ?? new Map<string, string>()).set(to, `${from}/x.ts`))
      }
      return graph
    }
    expect(graphCycles(graphOf(['src/components>src/islands', 'src/islands>src/components']))).toEqual([
      ['src/components', 'src/islands'],
    ])
    expect(graphCycles(graphOf(['a>a/b', 'a/b>a']))).toEqual([['a', 'a/b']])
    expect(graphCycles(graphOf(['a>b', 'b>c', 'c>a', 'c>d']))).toEqual([['a', 'b', 'c']])
    expect(graphCycles(graphOf(['a>b', 'b>c', 'a>c']))).toEqual([])
  })
})

describe('files import in one direction', () => {
  it('no file imports for its code, directly or through others, a file that imports it', () => {
    const graph = fileGraph()
    expect(graph.size).toBeGreaterThan(300)
    const described = graphCycles(graph).map((cycle) =>
      cycle
        .flatMap((from) =>
          [...(graph.get(from)?.keys() ?? [])].filter((to) => cycle.includes(to)).map((to) => `${from} → ${to}`),
        )
        .join('; '),
    )
    expect(described).toEqual([])
  })

  it('reads value imports, re-exports, side-effect and dynamic imports as edges, and type-only imports as none', () => {
    const cases: [string, boolean, boolean?][] = [
      [`import { a } from './x'`, false],
      [`import a, { type B } from './x'`, false],
      [`export { a } from './x'`, false],
      [`export * from './x'`, false],
      [`import './x'`, false, true],
      [`const m = await import('./x')`, false],
      [`import type { A } from './x'`, true],
      [`import { type A, type B } from './x'`, true],
      [`export type { A } from './x'`, true],
    ]
    for (const [line, typeOnly, bare = false] of cases) {
      expect(importsOf(path.join('server', 'probe.ts'), `${line}\n`), line).toEqual([
        { target: path.join('server', 'x'), typeOnly, bare },
      ])
    }
  })
})
