// The import specifiers of a source file, read by pattern (the architecture tests): static imports
// and re-exports with their clause, imports for their effect alone, and dynamic imports of a
// string literal.

export interface ImportSpec {
  /** What is imported: a package or a relative path, as written */
  spec: string
  /** `import type`, `export type`, or every named specifier marked `type`: erased from the code that runs */
  typeOnly: boolean
  /** `import './x'`: for its effect alone (a stylesheet, a polyfill) */
  bare: boolean
}

export function importSpecs(text: string): ImportSpec[] {
  const specs = text.matchAll(
    /(?:import|export)\s([^'"]*?)from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
  )
  return [...specs].map((m) => {
    const clause = m[1]?.trim() ?? ''
    const named = /^\{([^}]*)\}$/
      .exec(clause)?.[1]
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
    const typeOnly =
      /^type\s/.test(clause) || (named !== undefined && named.length > 0 && named.every((n) => /^type\s/.test(n)))
    return { spec: m[2] ?? m[3] ?? m[4], typeOnly, bare: m[4] !== undefined }
  })
}
