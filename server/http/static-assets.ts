// Browser assets: Vite's dev middleware (with HMR on Fastify's own socket) in development,
// the built dist/client in production. Stored images are the media routes' (server/media/).
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import fastifyStatic from '@fastify/static'
import fp from 'fastify-plugin'
import { ROOT_DIR, type Config } from '../config/config'
import { errorBody } from './errors'

const CLIENT_DIR = path.join(ROOT_DIR, 'dist/client')
const IMMUTABLE = 'public, max-age=31536000, immutable'
/** How long closing the development server waits for Vike's background load of the pages. */
const DEV_LOAD_WAIT_MS = 15_000
/** Apps of this process that serve through Vike's development server. */
let devApps = 0

// fastify-plugin: Vite's dev middleware must see every request, which only the root context does.
export const staticAssetsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    if (!config.isProduction) {
      await app.register(import('@fastify/middie'))
      const { createDevMiddleware, getGlobalContextAsync } = await import('vike/server')
      const { devMiddleware, viteServer } = await createDevMiddleware({
        root: ROOT_DIR,
        // HMR on Fastify's own server: no second port, and parallel dev servers do not collide.
        viteConfig: {
          server: { ws: { server: app.server } },
          logLevel: config.logLevel === 'silent' ? 'silent' : 'info',
        },
      })
      app.use(devMiddleware)
      // Vike keeps one Vite server per process, shared by every app built in it (tests build
      // several): the last app to close closes it.
      devApps++
      app.addHook('onClose', async () => {
        if (--devApps > 0) return
        // Vike loads the pages in the background once its middleware exists. Closing the Vite
        // server under that load breaks Vike's process-wide state, and the next app built in this
        // process then answers every page 500; so let the load finish first. A load that fails
        // (a page with a syntax error) never settles, hence the bound.
        await Promise.race([
          getGlobalContextAsync(false).catch(() => {}),
          delay(DEV_LOAD_WAIT_MS, undefined, { ref: false }),
        ])
        await viteServer.close()
      })
      return
    }

    if (!fs.existsSync(path.join(CLIENT_DIR, 'assets'))) {
      throw new Error('The production build is missing: run `npm run build` (or `npm start`, which builds it)')
    }
    await app.register(fastifyStatic, {
      root: CLIENT_DIR,
      prefix: '/',
      wildcard: false, // one route per built file; every other path goes to SSR
      // The build's brotli and gzip twins (server/build.ts) go out instead of compressing anew.
      preCompressed: true,
      index: false,
      redirect: false,
      setHeaders(reply, filePath) {
        const hashed = filePath.startsWith(path.join(CLIENT_DIR, 'assets') + path.sep)
        reply.header('cache-control', hashed ? IMMUTABLE : 'public, max-age=3600')
      },
    })
    // A chunk missing after a redeploy is a 404, never an HTML page in place of JavaScript.
    app.get('/assets/*', (_request, reply) => reply.code(404).send(errorBody(404)))
  },
  { name: 'static-assets' },
)
