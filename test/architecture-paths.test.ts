// URLs are written once (docs/decisions/022-house-layout.md): the site's own paths live in
// src/site/paths.ts, and no other source file spells one of them out in a string.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config/config'
import { ADMIN_API_PATHS, ADMIN_PATHS, API_PREFIX, PATHS } from '../src/site/paths'

const MAP_FILE = path.join('src', 'site', 'paths.ts')

function sourceFiles(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT_DIR, dir), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f))
}

/** Every fixed path of the map (the paths its functions build start with one of these). */
const MAPPED = [
  API_PREFIX,
  ...Object.values(PATHS),
  ...Object.values(ADMIN_PATHS),
  ...Object.values(ADMIN_API_PATHS),
].filter((value): value is string => typeof value === 'string')

function isMapped(literal: string): boolean {
  return MAPPED.some(
    (mapped) =>
      literal === mapped ||
      (literal.startsWith(mapped) && (mapped.endsWith('/') || /^[/?#]/.test(literal.slice(mapped.length)))),
  )
}

/** String and template literals that begin with a path of the map, comments left out. */
function pathLiterals(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
  return [...code.matchAll(/(['"`])(\/[^'"`$\s]*)/g)].map((m) => m[2]).filter(isMapped)
}

describe('the site paths map', () => {
  it('is the only source file that writes out a path of the site', () => {
    const offenders = ['server', 'src', 'pages', 'renderer']
      .flatMap(sourceFiles)
      .filter((file) => file !== MAP_FILE)
      .flatMap((file) =>
        pathLiterals(fs.readFileSync(path.join(ROOT_DIR, file), 'utf8')).map((literal) => `${file}: ${literal}`),
      )
    expect(offenders).toEqual([])
  })

  it('catches a path in a string, a template or a JSX attribute, and ignores comments and other paths', () => {
    const text = [
      "navigate('/admin/content')",
      'const url = `/api/admin/leads/${id}`',
      '<a href="/admin">К заявкам</a>',
      "app.get('/sitemap.xml', send)",
      "// the inbox at '/admin?lead=N'",
      "/* GET '/api/feedback' */ const home = '/'",
      "app.get('/healthz', ok) && app.get('/administrator') && fetch('/apis')",
    ].join('\n')
    expect(pathLiterals(text)).toEqual(['/admin/content', '/api/admin/leads/', '/admin', '/sitemap.xml'])
  })
})
