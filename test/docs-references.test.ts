// Every document the code and the docs cite is in the repository: a `docs/…` path names a file
// that exists, a `docs/contract.md §N` names a section of it, and nothing cites notes that live
// elsewhere (the spec the product came from, research notes).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/config/config'

const FOLDERS = ['pages', 'renderer', 'server', 'src', 'test', 'docs', '.ci']
const TOP_FILES = ['README.md', 'package.json', 'vite.config.ts', 'eslint.config.js', 'ecosystem.config.cjs']
// This file names the outside citations it forbids; it is not one of them.
const SELF = path.join('test', 'docs-references.test.ts')

function files(): string[] {
  const found = FOLDERS.flatMap((dir) =>
    (fs.readdirSync(path.join(ROOT_DIR, dir), { recursive: true }) as string[])
      .filter((f) => /\.(ts|tsx|js|cjs|css|md)$/.test(f) || dir === '.ci')
      .map((f) => path.join(dir, f))
      .filter((f) => fs.statSync(path.join(ROOT_DIR, f)).isFile()),
  )
  return [...found, ...TOP_FILES.filter((f) => fs.existsSync(path.join(ROOT_DIR, f)))].filter((f) => f !== SELF)
}

const texts = new Map(files().map((f) => [f, fs.readFileSync(path.join(ROOT_DIR, f), 'utf8')]))

function occurrences(pattern: RegExp): { file: string; match: RegExpExecArray }[] {
  return [...texts].flatMap(([file, text]) => [...text.matchAll(pattern)].map((match) => ({ file, match })))
}

describe('references to documents', () => {
  it('names only files of docs/ that exist', () => {
    const refs = occurrences(/\bdocs\/[\w./-]+\.md\b/g)
    expect(refs.length).toBeGreaterThan(10)
    const missing = refs.filter(({ match }) => !fs.existsSync(path.join(ROOT_DIR, match[0])))
    expect(missing.map(({ file, match }) => `${file}: ${match[0]}`)).toEqual([])
  })

  it('names only sections the contract has', () => {
    const contract = fs.readFileSync(path.join(ROOT_DIR, 'docs/contract.md'), 'utf8')
    const sections = new Set([...contract.matchAll(/^## (\d+)\./gm)].map((m) => m[1]))
    const refs = occurrences(/docs\/contract\.md §(\d+)/g)
    expect(refs.length).toBeGreaterThan(10)
    const dangling = refs.filter(({ match }) => !sections.has(match[1]))
    expect(dangling.map(({ file, match }) => `${file}: ${match[0]}`)).toEqual([])
  })

  it('names only files and folders of the tree that exist, in code comments, the README and the contract', () => {
    // Decision records keep their history (a file a decision removed); everything else is current.
    const current = [...texts].filter(([file]) => !file.startsWith(path.join('docs', 'decisions')))
    const named = current.flatMap(([file, text]) =>
      [...text.matchAll(/(?<![\w./-])(?:server|src|pages|renderer|test|docs)\/[\w.+/-]*[\w+-]/g)].map((match) => ({
        file,
        name: match[0].replace(/\.$/, ''),
      })),
    )
    expect(named.length).toBeGreaterThan(50)
    const decisions = fs.readdirSync(path.join(ROOT_DIR, 'docs/decisions'))
    // `docs/decisions/011` is short for the decision with that number.
    const exists = (name: string) =>
      ['', '.ts', '.tsx'].some((extension) => fs.existsSync(path.join(ROOT_DIR, name + extension))) ||
      (/^docs\/decisions\/\d{3}$/.test(name) && decisions.some((file) => file.startsWith(name.slice(-3))))
    const missing = named.filter(({ name }) => !exists(name))
    expect(missing.map(({ file, name }) => `${file}: ${name}`)).toEqual([])
  })

  it('names only Markdown files the repository has, wherever it names one by its file name alone', () => {
    const inTree = new Set([...texts.keys()].filter((f) => f.endsWith('.md')).map((f) => path.basename(f)))
    const refs = occurrences(/(?<![\w./-])[\w-]+\.md\b/g)
    expect(refs.length).toBeGreaterThan(0)
    const missing = refs.filter(({ match }) => !inTree.has(match[0]))
    expect(missing.map(({ file, match }) => `${file}: ${match[0]}`)).toEqual([])
  })

  it('cites no notes kept outside the repository', () => {
    const outside = occurrences(/CONTRACT §|spec point|spec §|\bresearch\b[^\n]*\.md|vike\.md|ecosystem\.md|STYLE §/g)
    expect(outside.map(({ file, match }) => `${file}: ${match[0]}`)).toEqual([])
  })
})
