import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SliderControls } from '../components/SliderControls'
import { Island } from './Island'

function NeverOnTheServer(): never {
  throw new Error('a client-only island was rendered on the server')
}

describe('Island', () => {
  it('writes a client-only island empty, with its props, and never renders its component', () => {
    const html = renderToString(
      createElement(Island<{ count: number }>, {
        name: 'slider',
        component: NeverOnTheServer,
        props: { count: 3 },
        clientOnly: true,
      }),
    )
    // Empty is what tells the browser to render it rather than hydrate it (hydrate.tsx).
    expect(html).toBe('<vitrina-island data-island="slider" data-props="{&quot;count&quot;:3}"></vitrina-island>')
  })

  it('writes no props attribute for a client-only island without props', () => {
    const html = renderToString(
      createElement(Island<object>, { name: 'nav', component: NeverOnTheServer, props: {}, clientOnly: true }),
    )
    expect(html).toBe('<vitrina-island data-island="nav"></vitrina-island>')
  })

  it('renders any other island on the server, inside its element', () => {
    const html = renderToString(
      createElement(Island<{ count: number }>, { name: 'slider', component: SliderControls, props: { count: 2 } }),
    )
    expect(html).toMatch(/^<vitrina-island data-island="slider" data-props="[^"]*"><div class="slider__controls">/)
    expect(html).toContain('aria-label="Слайд 2"')
  })
})
