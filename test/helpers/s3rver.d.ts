// s3rver ships no types: the part of its API the tests use.
declare module 's3rver' {
  import type { EventEmitter } from 'node:events'

  interface S3rverOptions {
    address?: string
    port?: number
    silent?: boolean
    directory: string
    configureBuckets?: Array<{ name: string }>
  }

  interface S3Event {
    Records: Array<{ eventName: string; s3: { object: { key: string } } }>
  }

  class S3rver extends EventEmitter {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
    on(event: 'event', listener: (event: S3Event) => void): this
  }

  export = S3rver
}
