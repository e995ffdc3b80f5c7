// The owner's layering: pages → src, renderer → src, server → src; src imports none of them,
// and nothing but server/ reaches server/. Checked on every import specifier in the tree.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config'

function sourceFiles(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT_DIR, dir), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f))
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')
  const specs = [
    ...text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
    ),
  ]
  return specs.map((m) => m[1] ?? m[2] ?? m[3])
}

function topFolderOf(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const target = path.relative(ROOT_DIR, path.resolve(ROOT_DIR, path.dirname(file), spec))
  return target.split(path.sep)[0]
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
