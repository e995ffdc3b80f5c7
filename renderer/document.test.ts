import { createElement, type ReactNode } from 'react'
import type { PageContextServer } from 'vike/types'
import { usePageContext } from 'vike-react/usePageContext'
import { describe, expect, it } from 'vitest'
import { pageDocument, UNSUPPORTED_SETTINGS } from './document'

function Page() {
  const { urlPathname } = usePageContext()
  return createElement('h1', null, `Страница ${urlPathname}`)
}
function Layout({ children }: { children?: ReactNode }) {
  return createElement('main', null, children)
}
function Head() {
  return createElement('meta', { name: 'theme-color', content: '#23303d' })
}

const context = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ Page, urlPathname: '/a', config: { Layout: [Layout], Head: [Head], ...config }, ...extra }) as unknown as Pick<
    PageContextServer,
    'Page' | 'config'
  >

const html = (document: ReturnType<typeof pageDocument>) => {
  if ('unsupported' in document) throw new Error(`unsupported: ${document.unsupported.join(', ')}`)
  return document.pieces.join('')
}

describe('pageDocument', () => {
  it('renders the page in its layouts, its heads, and the title and description useConfig() set', () => {
    const page = html(pageDocument(context({ lang: 'ru', title: 'Каталог' }, { _configViaHook: { title: 'A & «B»' } })))
    expect(page).toMatch(/^<!DOCTYPE html><html lang="ru"><head><meta charset="UTF-8" \/><title>/)
    expect(page).toContain('<title>A &amp; «B»</title><meta property="og:title" content="A &amp; «B»" />')
    expect(page).toContain('<meta name="theme-color" content="#23303d"/>')
    expect(page).toContain('<div id="root"><main><h1>Страница /a</h1></main></div>')
    expect(page).not.toContain('name="description"')
  })

  it('takes a setting given as a function of pageContext, and English when no language is set', () => {
    const page = html(pageDocument(context({ title: (pc: { urlPathname: string }) => `Ошибка ${pc.urlPathname}` })))
    expect(page).toContain('<html lang="en">')
    expect(page).toContain('<title>Ошибка /a</title>')
    expect(html(pageDocument(context({ lang: null })))).toContain('<html>')
  })

  it('renders an empty root for a page without server rendering', () => {
    const page = html(pageDocument({ Page: undefined, config: {} }))
    expect(page).toContain('<div id="root"></div>')
  })

  it('names the settings it does not make instead of rendering without them', () => {
    for (const name of UNSUPPORTED_SETTINGS) {
      expect(pageDocument(context({ [name]: [() => null] }))).toEqual({ unsupported: [name] })
    }
    expect(pageDocument(context({ Loading: { layout: () => null } }))).toEqual({ unsupported: ['Loading.layout'] })
    expect('pieces' in pageDocument(context({ Loading: {}, Wrapper: [null] }))).toBe(true)
  })
})
