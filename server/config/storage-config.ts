// Where images are kept (docs/decisions/026-media-in-a-bucket.md): the MEDIA_DIR folder of this host,
// or an S3-compatible bucket that every host shares. Read by server/config/config.ts from the environment.
import { ConfigError, flag, oneOf, origin, type Env } from './config-readers'

export interface S3StorageConfig {
  readonly kind: 's3'
  /** The service's origin, e.g. https://storage.yandexcloud.net */
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  /** Secrets, never logged */
  readonly accessKeyId: string
  readonly secretAccessKey: string
  /** https://endpoint/bucket/key instead of https://bucket.endpoint/key */
  readonly forcePathStyle: boolean
}

export type MediaStorageConfig = { readonly kind: 'disk' } | S3StorageConfig

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const
const S3_VARIABLES = [...S3_REQUIRED, 'S3_FORCE_PATH_STYLE']

// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html (the providers follow it)
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

export function readMediaStorage(env: Env): MediaStorageConfig {
  const kind = oneOf(env, 'MEDIA_STORAGE', 'disk', ['disk', 's3'])
  const value = (name: string) => env[name]?.trim() ?? ''
  if (kind === 'disk') {
    // A bucket configured but not switched on would leave every host with its own images.
    const stray = S3_VARIABLES.find((name) => value(name) !== '')
    if (stray) throw new ConfigError('MEDIA_STORAGE', `${stray} is set, so expected MEDIA_STORAGE=s3`)
    return Object.freeze({ kind })
  }
  const missing = S3_REQUIRED.find((name) => value(name) === '')
  if (missing) throw new ConfigError(missing, 'is required when MEDIA_STORAGE=s3')
  const endpoint = origin(env, 'S3_ENDPOINT', '')
  if (new URL(endpoint).pathname !== '/') {
    throw new ConfigError('S3_ENDPOINT', `expected the service's origin without a path, got "${endpoint}"`)
  }
  const region = value('S3_REGION')
  if (!/^[a-z0-9-]{1,40}$/.test(region)) {
    throw new ConfigError('S3_REGION', `expected a region name such as ru-central1, got "${region}"`)
  }
  const bucket = value('S3_BUCKET')
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(
      'S3_BUCKET',
      `expected a bucket name (3–63 lowercase letters, digits, dots, hyphens), got "${bucket}"`,
    )
  }
  const accessKeyId = value('S3_ACCESS_KEY_ID')
  if (/\s/.test(accessKeyId) || accessKeyId.length > 256) {
    throw new ConfigError('S3_ACCESS_KEY_ID', 'expected the key id the provider gave (the value is not shown)')
  }
  return Object.freeze({
    kind,
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey: value('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', false),
  })
}
