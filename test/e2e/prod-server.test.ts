// The production build, started by the real entry point, over a real socket.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuild, NOT_KEPT_ALIVE, startProdServer, type ProdServer } from '../helpers/prod-server'

let server: ProdServer
beforeAll(async () => {
  ensureBuild()
  server = await startProdServer()
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

describe('the production server', () => {
  it.each([
    ['/', 200, 'ТехноМастер — электроинструмент и садовая техника'],
    ['/structure/', 200, 'Каталог'],
    ['/structure/product', 200, 'Дрель-шуруповёрт аккумуляторная 18 В'],
    ['/no-such-page', 404, 'Ошибка 404. Такой страницы нет'],
  ])('answers %s with %i and its title', async (path, status, title) => {
    const res = await fetch(server.url + path, { redirect: 'manual' })
    expect(res.status).toBe(status)
    const html = await res.text()
    expect(html).toContain(`<title>${title}</title>`)
  })

  it('serves hashed assets with immutable caching and a missing asset as a plain 404', async () => {
    const html = await (await fetch(server.url + '/')).text()
    const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(html)?.[1]
    expect(asset).toBeDefined()
    const res = await fetch(server.url + asset)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const missing = await fetch(server.url + '/assets/entries/gone.0123abcd.js')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).not.toMatch(/html/)
  })

  it('serves demo images from /media/ with long caching', async () => {
    const html = await (await fetch(server.url + '/')).text()
    const image = /src="(\/media\/demo\/[^"]+)"/.exec(html)?.[1]
    expect(image).toBeDefined()
    const res = await fetch(server.url + image)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect((await fetch(server.url + '/media/demo/nothing.svg')).status).toBe(404)
  })

  it('hands each page only the query parameters it declares, from the first request of a path', async () => {
    // The section reads its sort, not ref: its canonical spelling drops ref, as its cache key would.
    const section = await fetch(`${server.url}/structure/power-tools/?ref=x&sort=price&sort=name`, {
      redirect: 'manual',
    })
    expect([section.status, section.headers.get('location')]).toEqual([301, '/structure/power-tools/?sort=price'])
    const form = await (await fetch(`${server.url}/zayavka?ref=x&oshibka=1`)).text()
    expect(form).toContain('Не удалось отправить заявку')
  })

  it('logs no error for pages that are simply missing or malformed URLs', async () => {
    for (const path of ['/no-such-page', '/structure/no-such-product', '/%E0%A4%A']) {
      const res = await fetch(server.url + path)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
    // Public pages are HTML only: no pageContext.json, a JSON 404 instead
    expect((await fetch(server.url + '/no-such-page/index.pageContext.json')).status).toBe(404)
    await server.logsSettled()
    expect(server.output()).not.toMatch(/"level":(50|60)/)
  })

  it('does not log a visitor who leaves mid-download as an error', async () => {
    // A file larger than the socket buffers, so the answer is still streaming when the client goes.
    const big = path.join(server.dir, 'media', 'uploads', 'big.png')
    fs.mkdirSync(path.dirname(big), { recursive: true })
    fs.writeFileSync(big, Buffer.alloc(20_000_000, 1))
    const before = server.output().length
    for (const encoding of ['identity', 'gzip']) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1', () =>
          socket.write(`GET /media/uploads/big.png HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${encoding}\r\n\r\n`),
        )
        socket.once('data', () => {
          socket.pause() // the phone lost its signal…
          setTimeout(() => socket.destroy(), 200) // …and gave up
          socket.once('close', () => resolve())
        })
      })
    }
    // The server saw each connection reset before the marker's request arrived.
    await server.logsSettled()
    const logged = server.output().slice(before)
    expect(logged).not.toMatch(/"level":(50|60)/)
    expect(logged).not.toContain('"stack"')
  })

  it('closes gracefully on SIGTERM with exit code 0', async () => {
    const extra = await startProdServer()
    try {
      expect(await extra.stop('SIGTERM')).toBe(0)
    } finally {
      extra.cleanup()
    }
  })
})

describe('compression', () => {
  it('sends pages and scripts compressed to clients that accept it, and plain to those that do not', async () => {
    const { request } = await import('undici')
    const page = await request(server.url + '/', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(page.headers['content-encoding']).toBe('br')
    const compressed = Buffer.from(await page.body.arrayBuffer())
    const plain = await request(server.url + '/', { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    const html = await plain.body.text()
    expect(html).toContain('<title>')
    expect(compressed.length).toBeLessThan(Buffer.byteLength(html) / 3)
    const { brotliDecompressSync } = await import('node:zlib')
    expect(brotliDecompressSync(compressed).toString()).toContain('<title>ТехноМастер')
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    const asset = await request(server.url + script, { headers: { 'accept-encoding': 'gzip' } })
    expect(asset.headers['content-encoding']).toBe('gzip')
    await asset.body.dump()
  })

  it('sends each built script as its brotli or gzip twin made by the build, varying on Accept-Encoding', async () => {
    const { request } = await import('undici')
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib')
    // The file's last requests: their sockets must not hold the server's stop in afterAll.
    const html = await (await fetch(server.url + '/', { headers: NOT_KEPT_ALIVE })).text()
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
    const largest = scripts
      .map((url) => ({ url, file: path.join('dist/client', url) }))
      .sort((a, b) => fs.statSync(b.file).size - fs.statSync(a.file).size)[0]
    const plain = fs.readFileSync(largest.file)
    for (const [encoding, suffix, decode] of [
      ['br', '.br', brotliDecompressSync],
      ['gzip', '.gz', gunzipSync],
    ] as const) {
      const res = await request(server.url + largest.url, {
        headers: { 'accept-encoding': encoding, ...NOT_KEPT_ALIVE },
      })
      expect(res.headers['content-encoding']).toBe(encoding)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.headers['content-type']).toMatch(/javascript/)
      const body = Buffer.from(await res.body.arrayBuffer())
      expect(body.equals(fs.readFileSync(largest.file + suffix))).toBe(true)
      expect(decode(body).equals(plain)).toBe(true)
    }
  })
})

describe('the browser bundle', () => {
  it('compiles no code at run time: no eval, no new Function, no ajv schema compiler (the CSP forbids them)', () => {
    const dir = 'dist/client/assets'
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'))
      .map((file) => ({ file, code: fs.readFileSync(path.join(dir, file), 'utf8') }))
    // The lead form's validators are in the bundle, as generated code.
    expect(files.some(({ code }) => code.includes('Поле обязательно'))).toBe(true)
    const found = files.flatMap(({ file, code }) =>
      [/\bnew Function\s*\(/, /\beval\s*\(/, /schema must be object or boolean/, /unknown keyword: /]
        .filter((pattern) => pattern.test(code))
        .map((pattern) => `${file}: ${pattern}`),
    )
    expect(found).toEqual([])
  })
})
