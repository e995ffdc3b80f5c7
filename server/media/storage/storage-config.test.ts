import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../../config/config'

const S3 = {
  MEDIA_STORAGE: 's3',
  S3_ENDPOINT: 'https://storage.yandexcloud.net',
  S3_REGION: 'ru-central1',
  S3_BUCKET: 'shop-media',
  S3_ACCESS_KEY_ID: 'YCAJE-key-id',
  S3_SECRET_ACCESS_KEY: 'a-secret-that-is-never-shown',
}

function failure(env: Record<string, string>): ConfigError {
  try {
    readConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('readConfig accepted it')
}

describe('MEDIA_STORAGE', () => {
  it('keeps images in MEDIA_DIR unless told otherwise', () => {
    expect(readConfig({}).mediaStorage).toEqual({ kind: 'disk' })
  })

  it('takes an S3-compatible bucket with all of its settings, virtual-host style unless told', () => {
    expect(readConfig(S3).mediaStorage).toEqual({
      kind: 's3',
      endpoint: 'https://storage.yandexcloud.net',
      region: 'ru-central1',
      bucket: 'shop-media',
      accessKeyId: 'YCAJE-key-id',
      secretAccessKey: 'a-secret-that-is-never-shown',
      forcePathStyle: false,
    })
    expect(readConfig({ ...S3, S3_FORCE_PATH_STYLE: 'true' }).mediaStorage).toMatchObject({ forcePathStyle: true })
  })

  it('stops the start naming the first missing or bad setting, never showing a secret', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...S3, S3_BUCKET: '' }, 'S3_BUCKET'],
      [{ ...S3, S3_SECRET_ACCESS_KEY: ' ' }, 'S3_SECRET_ACCESS_KEY'],
      [{ ...S3, S3_ENDPOINT: 'storage.yandexcloud.net' }, 'S3_ENDPOINT'],
      [{ ...S3, S3_ENDPOINT: 'https://storage.yandexcloud.net/shop-media' }, 'S3_ENDPOINT'],
      [{ ...S3, S3_BUCKET: 'Shop_Media' }, 'S3_BUCKET'],
      [{ ...S3, S3_REGION: 'RU Central' }, 'S3_REGION'],
      [{ ...S3, S3_ACCESS_KEY_ID: 'key with spaces' }, 'S3_ACCESS_KEY_ID'],
      [{ ...S3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
      [{ ...S3, MEDIA_STORAGE: 'ftp' }, 'MEDIA_STORAGE'],
      // A bucket configured but not switched on would leave each host with its own images.
      [{ S3_BUCKET: 'shop-media' }, 'MEDIA_STORAGE'],
    ]
    for (const [env, variable] of cases) {
      const error = failure(env)
      expect(error.variable, JSON.stringify(env)).toBe(variable)
      expect(error.message).not.toContain('a-secret-that-is-never-shown')
      expect(error.message).not.toContain('key with spaces')
    }
  })
})
