// The app's media store, chosen by MEDIA_STORAGE: created before the database (the demo shop's
// images are written through it) and shared by uploads, variants, share images and /media/.
import fs from 'node:fs'
import fp from 'fastify-plugin'
import type { Config } from '../../config/config'
import { DiskStorage } from './disk-storage'
import type { MediaStorage } from './media-storage'
import { S3Storage } from './s3-storage'

declare module 'fastify' {
  interface FastifyInstance {
    mediaStorage: MediaStorage
  }
}

export function createMediaStorage(config: Pick<Config, 'mediaDir' | 'mediaStorage'>): MediaStorage {
  if (config.mediaStorage.kind === 's3') return new S3Storage(config.mediaStorage)
  fs.mkdirSync(config.mediaDir, { recursive: true })
  return new DiskStorage(config.mediaDir)
}

export const mediaStoragePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('mediaStorage', createMediaStorage(config))
  },
  { name: 'media-storage' },
)
