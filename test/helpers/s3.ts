// A real S3-compatible server in the test process (s3rver, its objects in a temp folder), behind a
// TCP proxy the test can cut: the bucket that MEDIA_STORAGE=s3 talks to.
import fs from 'node:fs'
import { AwsClient } from 'aws4fetch'
import S3rver from 's3rver'
import { tempDir } from './build-test-app'
import { startTcpProxy, type TcpProxy } from './tcp-proxy'

export interface TestBucket {
  /** The site's settings for this bucket (MEDIA_STORAGE, S3_*) */
  readonly env: Record<string, string>
  /** Where an object is, by its media path: the bucket's public URL of it */
  objectUrl(mediaPath: string): string
  /** Media paths of the objects written since the start, one entry per PUT */
  readonly created: string[]
  has(mediaPath: string): Promise<boolean>
  remove(mediaPath: string): Promise<void>
  /** Drops every connection and refuses new ones: the bucket is unreachable */
  cut(): void
  heal(): void
  close(): Promise<void>
}

const BUCKET = 'vitrina-media'

export async function startTestBucket(): Promise<TestBucket> {
  const dir = tempDir('vitrina-s3-')
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  })
  const { port } = await server.run()
  const created: string[] = []
  server.on('event', (event) => {
    for (const record of event.Records) {
      if (record.eventName.startsWith('ObjectCreated')) created.push(record.s3.object.key.replace(/^media\//, ''))
    }
  })
  const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port })
  const endpoint = `http://127.0.0.1:${proxy.port}`
  const objectUrl = (mediaPath: string) => `${endpoint}/${BUCKET}/media/${mediaPath}`
  // Around the proxy: what the bucket really holds, whether or not the site can reach it.
  const direct = new AwsClient({
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    service: 's3',
    region: 'ru-central1',
    retries: 0,
  })
  const directUrl = (mediaPath: string) => `http://127.0.0.1:${port}/${BUCKET}/media/${mediaPath}`
  return {
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'ru-central1',
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    objectUrl,
    created,
    async has(mediaPath) {
      const response = await direct.fetch(directUrl(mediaPath), { method: 'HEAD' })
      return response.status === 200
    },
    async remove(mediaPath) {
      const response = await direct.fetch(directUrl(mediaPath), { method: 'DELETE' })
      if (response.status !== 204) throw new Error(`DELETE ${mediaPath}: ${response.status}`)
    },
    cut: () => proxy.cut(),
    heal: () => proxy.heal(),
    async close() {
      await proxy.close()
      await server.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
