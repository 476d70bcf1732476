/**
 * Redis connections. Reads fail fast when Redis is unreachable (the API answers 503); queue and worker
 * connections wait for Redis to come back (BullMQ requires `maxRetriesPerRequest: null`).
 */
import { Redis } from 'ioredis'

/** A connection for API reads and writes: a command fails after a few reconnection attempts. */
export function connectForRequests(url: string, name = 'svc'): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false })
}

/** A connection for queues and workers: commands wait for Redis to come back. */
export function connectForQueues(url: string, name = 'svc-queue'): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: null, enableReadyCheck: true })
}

/** Whether the server has the search module loaded (MODULE LIST). */
export async function hasSearchModule(redis: Redis): Promise<boolean> {
  const modules = (await redis.call('MODULE', 'LIST')) as unknown[][]
  return modules.some((entry) => {
    const fields = entry as unknown[]
    const i = fields.findIndex((f) => String(f) === 'name')
    const name = i >= 0 ? String(fields[i + 1]).toLowerCase() : ''
    return name === 'search' || name === 'ft'
  })
}
