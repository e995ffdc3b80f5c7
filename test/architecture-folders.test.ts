// No import runs back up between folders (issue 43's leftovers): across src/, server/, pages/ and
// renderer/, the folders' imports form no cycle, of two folders (`components/` ↔ `islands/`), of a
// folder and its subfolder (`delivery/` ↔ `delivery/channels/`) or longer. A file is its folder's;
// a cycle is found as a strongly connected component of the folder graph (Tarjan's algorithm).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config/config'

const TREES = ['src', 'server', 'pages', 'renderer']

type Graph = Map<string, Map<string, string>>

/** Folder → folder it imports → one file that does (for the message). */
function folderGraph(): Graph {
  const graph: Graph = new Map()
  for (const tree of TREES) {
    const files = (fs.readdirSync(path.join(ROOT_DIR, tree), { recursive: true }) as string[])
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => path.join(tree, f))
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')
      const specs = text.matchAll(
        /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
      )
      const from = path.dirname(file)
      for (const m of specs) {
        const target = path.resolve(ROOT_DIR, from, m[1] ?? m[2])
        const isFolder = fs.existsSync(target) && fs.statSync(target).isDirectory()
        const to = path.relative(ROOT_DIR, isFolder ? target : path.dirname(target))
        if (to === from) continue
        const edges = graph.get(from) ?? new Map<string, string>()
        if (!edges.has(to)) edges.set(to, file)
        graph.set(from, edges)
      }
    }
  }
  return graph
}

/** The graph's cycles: each strongly connected component of more than one folder, its folders sorted. */
export function folderCycles(graph: Graph): string[][] {
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
    const described = folderCycles(graph).map((cycle) =>
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
    expect(folderCycles(graphOf(['src/components>src/islands', 'src/islands>src/components']))).toEqual([
      ['src/components', 'src/islands'],
    ])
    expect(folderCycles(graphOf(['a>a/b', 'a/b>a']))).toEqual([['a', 'a/b']])
    expect(folderCycles(graphOf(['a>b', 'b>c', 'c>a', 'c>d']))).toEqual([['a', 'b', 'c']])
    expect(folderCycles(graphOf(['a>b', 'b>c', 'a>c']))).toEqual([])
  })
})
