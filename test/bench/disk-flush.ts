// The disk's own time to flush a small write, with nothing of the site running: 8 kB written and
// flushed (fdatasync) every 20 ms, as a lead's commit writes and flushes a little at a time. A lead
// on either database waits for such a flush (SQLite's synchronous=FULL, PostgreSQL's commit), so a
// bench that times leads prints this beside them: a lead over 100 ms while the idle disk itself
// takes over 100 ms to flush is the disk's, not the site's (decision 032).
import fs from 'node:fs/promises'
import path from 'node:path'
import { spreadOf } from './load'

export interface DiskFlush {
  flushes: number
  p50: number
  p99: number
  worst: number
  over50: number
}

export async function diskFlush(dir: string, seconds = 10): Promise<DiskFlush> {
  const file = path.join(dir, `disk-flush-${process.pid}.bin`)
  const handle = await fs.open(file, 'w')
  const page = Buffer.alloc(8192, 1)
  const times: number[] = []
  try {
    const end = Date.now() + seconds * 1000
    for (let i = 0; Date.now() < end; i++) {
      const start = performance.now()
      await handle.write(page, 0, page.length, (i % 128) * page.length)
      await handle.datasync()
      times.push(performance.now() - start)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await handle.close()
    await fs.rm(file, { force: true })
  }
  return { flushes: times.length, ...spreadOf(times), over50: times.filter((ms) => ms > 50).length }
}

export function describeDiskFlush(when: string, flush: DiskFlush): string {
  return (
    `  the disk ${when}: 8 kB flushed every 20 ms, ${flush.flushes} times: p50 ${flush.p50.toFixed(1)} ms, ` +
    `p99 ${flush.p99.toFixed(1)} ms, worst ${flush.worst.toFixed(0)} ms, ${flush.over50} over 50 ms`
  )
}
