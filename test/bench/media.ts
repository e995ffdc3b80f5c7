// The bench's media table: one image variant answered through /media/ by a server whose media
// store is the MEDIA_DIR folder, and by one whose store is a bucket (a real S3 server in this
// process, on the load generator's core): requests a second, p50/p99 and the server's CPU time per
// request (decision 026).
import { Pool } from 'undici'
import { photo } from '../helpers/media'
import { startProdServer } from '../helpers/prod-server'
import { startTestBucket } from '../helpers/s3'
import { runLoad } from './load'

const TOKEN = 'bench-admin-token-0123456789abcdef'

/** Uploads one photo and returns the path of its 960 px WebP variant. */
async function uploadedVariant(url: string, bytes: Buffer): Promise<string> {
  const query = encodeURIComponent(JSON.stringify({ where: { urlFull: '/structure/power-tools/' } }))
  const parentId = (await (await fetch(`${url}/api/structure?query=${query}`)).json()).data.id
  const form = new FormData()
  const data = { parentId, typeId: 'product', title: 'Фото', urlFull: '/structure/power-tools/bench-media' }
  form.append('data', JSON.stringify(data))
  form.append('product.image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg')
  const res = await fetch(`${url}/api/structure`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  const image = (await res.json()).data.product.image as string
  return `/media/${image.replace(/\.jpg$/, '')}-960.webp`
}

export async function benchMediaStore(durationMs: number, concurrency: number, cpu: number): Promise<void> {
  const bucket = await startTestBucket()
  const bytes = await photo(2000, 1333)
  const rows: Record<string, string | number>[] = []
  try {
    for (const [store, env] of [
      ['folder (MEDIA_DIR)', {}],
      ['bucket (MEDIA_STORAGE=s3)', bucket.env],
    ] as const) {
      const server = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: TOKEN, ...env }, undefined, { cpu })
      const pool = new Pool(server.url, { connections: concurrency })
      try {
        const path = await uploadedVariant(server.url, bytes)
        const result = await runLoad(pool, server.child.pid!, { method: 'GET', path }, {}, durationMs, concurrency)
        rows.push({
          store,
          image: '960 px WebP variant',
          'req/s': Math.round(result.perSecond),
          'p50 ms': result.p50.toFixed(2),
          'p99 ms': result.p99.toFixed(2),
          'CPU ms/req': result.cpuMsPerRequest.toFixed(3),
          statuses: result.statuses,
          errors: result.errors,
        })
      } finally {
        await pool.close()
        await server.stop()
        server.cleanup()
      }
    }
  } finally {
    await bucket.close()
  }
  console.log(
    'An image through /media/ from the folder and from a bucket (the S3 server on the load generator’s core):',
  )
  console.table(rows)
}
