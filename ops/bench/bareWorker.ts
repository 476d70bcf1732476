/** Baseline process: BullMQ workers that complete empty jobs at once (the queue round trip without our work). */
import { Worker } from 'bullmq'
import { Redis } from 'ioredis'

const url = process.env.REDIS_URL!
const partitions = Number(process.env.PARTITIONS ?? 16)
const connection = new Redis(url, { maxRetriesPerRequest: null })
const workers = Array.from({ length: partitions }, (_, p) => new Worker(`bare-${p}`, async () => ({ ok: true }), { connection, prefix: 'bench', concurrency: 1 }))
await Promise.all(workers.map((w) => w.waitUntilReady()))
process.stdout.write('bare workers ready\n')
process.once('SIGTERM', () => { void Promise.all(workers.map((w) => w.close())).then(() => process.exit(0)) })
