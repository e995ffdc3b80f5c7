import { applyPriceList, previewPriceList } from '../../server/catalogue/price-list/price-import'
import { buildTestApp } from '../../test/helpers/build-test-app'
import { DIALECTS } from '../../test/helpers/dialects'
import { benchPriceList } from '../../test/bench/catalogue-io'
async function main() {
const dialect = DIALECTS.find((d) => d.name === (process.env.DIALECT ?? 'SQLite'))!
const t = await dialect.build({ LOG_LEVEL: 'silent', NODE_ENV: 'production' })
for (const f of [benchPriceList((i) => 1000 + i), benchPriceList((i) => 2000 + i)]) {
  const p = await previewPriceList(t.app.db, f)
  const stats = { chunks: 0, longestMs: 0 }
  const c = process.cpuUsage(); const s = performance.now()
  await applyPriceList(t.app.writeDoor, f, p.confirm, stats)
  const u = process.cpuUsage(c)
  console.log(Math.round(performance.now() - s), 'ms wall', Math.round((u.user + u.system) / 1000), 'ms cpu', stats)
}
await t.close()
process.exit(0)

}
void main()
