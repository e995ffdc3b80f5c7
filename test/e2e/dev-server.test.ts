// `npm run dev`: the same server in development mode, Vite's HMR websocket on the same port.
import { WebSocket } from 'undici'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startProdServer, type ProdServer } from '../helpers/prod-server'

let server: ProdServer
beforeAll(async () => {
  server = await startProdServer({ NODE_ENV: 'development' })
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

it('renders pages from the sources with the Vite client, and accepts HMR on the same port', async () => {
  const res = await fetch(`${server.url}/structure/product`)
  expect(res.status).toBe(200)
  const html = await res.text()
  expect(html).toContain('<title>Дрель-шуруповёрт аккумуляторная 18 В</title>')
  expect(html).toContain('/@vite/client')
  const opened = await new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/`, 'vite-hmr')
    ws.addEventListener('open', () => {
      resolve(ws.protocol)
      ws.close()
    })
    ws.addEventListener('error', () => reject(new Error('HMR websocket refused')))
  })
  expect(opened).toBe('vite-hmr')
})
