// npm run backup -- <dir>
// An online copy of the site: the SQLite database through the driver's backup API (consistent
// while the site keeps writing) and the media folder, into <dir>/vitrina-<date>-<time>/.
// On PostgreSQL the database is the server's to back up (pg_dump); the media folder is copied.
// Images in a bucket (MEDIA_STORAGE=s3) are not copied: the bucket is shared by every host and
// backed up on the provider's side (versioning, or a copy with rclone: README, "Backup and restore").
import fs from 'node:fs/promises'
import path from 'node:path'
import { readConfig, type Config } from '../config/config'
import { SQLite } from '../data/sqlite-driver'
import { runTool, UsageError, userPath } from './tool-config'

const USAGE = 'usage: npm run backup -- <folder>   (the same environment as npm start: DATABASE_URL, MEDIA_DIR)'

export interface BackupResult {
  readonly folder: string
  /** The database copy, or null on PostgreSQL */
  readonly database: string | null
  /** Files copied from the media folder, or null when the images live in a bucket */
  readonly mediaFiles: number | null
}

function stamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-')
}

async function copyFolder(from: string, to: string): Promise<number> {
  let files = 0
  const entries = await fs.readdir(from, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  await fs.mkdir(to, { recursive: true })
  for (const entry of entries) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) files += await copyFolder(source, target)
    else if (entry.isFile()) {
      await fs.copyFile(source, target)
      files++
    }
  }
  return files
}

export async function backup(config: Config, dir: string, at = new Date()): Promise<BackupResult> {
  const folder = path.resolve(dir, `vitrina-${stamp(at)}`)
  await fs.mkdir(folder, { recursive: true })
  let database: string | null = null
  if (config.database.kind === 'sqlite') {
    await fs.access(config.database.path).catch(() => {
      throw new UsageError(`no database at ${config.database.kind === 'sqlite' ? config.database.path : ''}`)
    })
    database = path.join(folder, 'site.db')
    const source = new SQLite(config.database.path, { readonly: true, fileMustExist: true })
    try {
      await source.backup(database)
    } finally {
      source.close()
    }
  }
  const mediaFiles =
    config.mediaStorage.kind === 's3' ? null : await copyFolder(config.mediaDir, path.join(folder, 'media'))
  return { folder, database, mediaFiles }
}

export async function backupMain(argv: string[], env = process.env, out: NodeJS.WritableStream = process.stdout) {
  if (argv.length !== 1 || argv[0].startsWith('-')) throw new UsageError(USAGE)
  const config = readConfig(env)
  const result = await backup(config, userPath(argv[0], env))
  out.write(`Backup written to ${result.folder}\n`)
  out.write(
    result.database
      ? `  database: ${path.basename(result.database)}\n`
      : '  database: PostgreSQL, not copied: back it up with pg_dump (see the README)\n',
  )
  const { mediaStorage } = config
  out.write(
    mediaStorage.kind === 's3'
      ? `  media: in bucket ${mediaStorage.bucket} at ${mediaStorage.endpoint}, not copied: back it up on the provider's side (see the README)\n`
      : `  media: ${result.mediaFiles} files\n`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) runTool((argv) => backupMain(argv))
