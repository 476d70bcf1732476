/**
 * `npm test`: runs every `*.test.ts` under test/ with uvu on a standalone Redis, then the suites that concern
 * storage (routes, search, relationships and lineage, restore, rollback, ordering, the CLI, cluster faults) again on
 * a local Redis Cluster (3 masters + 3 replicas), each pass in its own process; ends with the line
 * `N passed, N failed` (CI reads it). Arguments: an optional file-name pattern (`npm test -- urn`).
 * TEST_TOPOLOGIES=standalone (or cluster) runs one pass only.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const pattern = process.argv[2] ?? ''
const topologies = (process.env.TEST_TOPOLOGIES ?? 'standalone,cluster').split(',').map((s) => s.trim()).filter(Boolean)
/** The suites that run on the cluster too: everything that reads or writes the store through the service, and its connections. */
const CLUSTER_SUITES = /(gateway\/|model\/search\/|model\/store\/requestConnection|workers\/|ops\/(cli|rebuild)|faults\/(cluster|workerCrash|gatewayCrash|overload|fuzz|badInputFound))/

let passed = 0
let failed = 0
let skipped = 0
for (const topology of topologies) {
  console.log(`\n==== ${topology} ====`)
  const child = spawn(process.execPath, [fileURLToPath(new URL('./runPass.ts', import.meta.url)), pattern], {
    env: { ...process.env, TEST_TOPOLOGY: topology, ...(topology === 'cluster' ? { TEST_ONLY: CLUSTER_SUITES.source } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); process.stdout.write(d) })
  const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)))
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(out)
  const skip = /^(\d+) skipped$/m.exec(out)
  if (!summary) {
    console.log(`${topology}: the test pass ended (exit ${code}) without a summary`)
    failed++
    continue
  }
  passed += Number(summary[1])
  failed += Number(summary[2]) + (code !== 0 && Number(summary[2]) === 0 ? 1 : 0)
  skipped += Number(skip?.[1] ?? 0)
}
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
